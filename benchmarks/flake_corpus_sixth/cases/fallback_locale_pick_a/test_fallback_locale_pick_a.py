import fallback_locale_pick_a_i18n as i18n


def test_known_language():
    assert i18n.negotiate("fr-CH, fr;q=0.9") == "fr"


def test_unknown_language_gets_real_locale():
    loc = i18n.negotiate("xx-YY, zz;q=0.5")
    assert loc in i18n.SUPPORTED
    assert loc != "qps-ploc"
