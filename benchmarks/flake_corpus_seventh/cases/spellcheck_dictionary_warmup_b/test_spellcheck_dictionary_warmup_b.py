import spellcheck_dictionary_warmup_b_spell as spell


def test_typos_are_flagged():
    checker = spell.SpellChecker()
    assert checker.ready.wait(30), "dictionary did not load"
    assert checker.check("Teh quick brown fox jumps ovr the lazy dog") == ["teh", "ovr"]
