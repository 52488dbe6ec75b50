import wifi_guest_passphrase_a_passphrase as passphrase


def test_guest_passphrase_meets_router_policy():
    pw = passphrase.guest_passphrase()
    assert len(pw) == 12
    assert passphrase.meets_policy(pw), pw


def test_passphrases_differ():
    assert passphrase.guest_passphrase() != passphrase.guest_passphrase()
