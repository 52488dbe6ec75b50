import time

from token_expiry_utcnow_a_tokens import issue_reset_token


def test_reset_token_expires_in_15_minutes():
    before = time.time()
    tok = issue_reset_token(42)
    remaining = tok["exp"] - before
    assert 15 * 60 - 5 <= remaining <= 15 * 60, remaining
