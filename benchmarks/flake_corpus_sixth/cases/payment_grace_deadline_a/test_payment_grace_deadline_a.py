import payment_grace_deadline_a_dunning as dunning


def test_reminder_mentions_deadline():
    text = dunning.reminder_text("INV-2041")
    assert text.startswith("Invoice INV-2041 is overdue.")
    assert "pay by" in text
