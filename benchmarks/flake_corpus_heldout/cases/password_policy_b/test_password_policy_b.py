import string

from password_policy_b_app import generate_password


def test_generated_password_meets_policy():
    pw = generate_password()
    assert len(pw) == 8
    assert any(c in string.digits for c in pw)
    assert any(c in string.ascii_letters for c in pw)
