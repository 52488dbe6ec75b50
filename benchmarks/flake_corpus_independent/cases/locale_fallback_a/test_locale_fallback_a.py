AVAILABLE = {
    "de-DE", "en-GB", "en-US", "es-ES", "fr-FR", "it-IT", "ja-JP", "ko-KR",
    "nl-NL", "pl-PL", "pt-BR", "sv-SE", "tr-TR", "zh-CN", "fil",
}


def choose_locale(preferred, available):
    for loc in preferred:
        if loc in available:
            return loc
    return next(iter(available))


def test_fallback_locale_has_region():
    loc = choose_locale(["xx-YY"], AVAILABLE)
    lang, region = loc.split("-")
    assert lang.islower() and region.isupper()
