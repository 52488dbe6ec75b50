from email_dedupe_a_contacts import dedupe


def test_dedupe_keeps_first_spelling():
    emails = ["Grace.Hopper@Navy.test", "alan@bletchley.test", "grace.hopper@navy.test"]
    assert dedupe(emails) == ["alan@bletchley.test", "Grace.Hopper@Navy.test"]
