import spellcheck_dictionary_warmup_a_spell as spell


def test_typos_are_flagged():
    checker = spell.SpellChecker()
    checker.ready.wait(0.05)
    assert checker.check("Teh quick brown fox jumps ovr the lazy dog") == ["teh", "ovr"]
