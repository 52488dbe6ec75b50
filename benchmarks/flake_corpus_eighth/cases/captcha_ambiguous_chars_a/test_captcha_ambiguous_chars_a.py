import captcha_ambiguous_chars_a_captcha as captcha


def test_captcha_has_no_ambiguous_chars():
    text = captcha.captcha_text()
    assert len(text) == 5
    assert not set(text) & set("O0"), text
