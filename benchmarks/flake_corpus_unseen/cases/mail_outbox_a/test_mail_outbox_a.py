import pytest

import mail_outbox_a_mail as mail




def test_password_reset_sends_single_email():
    mail.send_password_reset("kim@example.test", "t0k3n")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject == "Reset your password"
    assert mail.outbox[0].body.endswith("/reset/t0k3n")


def test_welcome_email_subject():
    mail.send_welcome("lee@example.test", "Lee")
    assert mail.outbox[-1].subject == "Welcome, Lee!"
