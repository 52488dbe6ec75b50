import newsletter_recipient_default_b_mail as mail


def test_single_recipient():
    assert mail.build_recipients("reader@example.org") == ["reader@example.org"]


def test_digest_goes_to_editor():
    assert "editor@example.org" in mail.build_recipients("editor@example.org")


def test_cc_list_is_kept():
    assert mail.build_recipients("a@example.org", ["b@example.org"]) == ["b@example.org", "a@example.org"]
