import pytest

import jwt_not_before_round_b_tokens as tokens

SECRET = b"internal-api-test-secret"


def test_fresh_token_verifies():
    token = tokens.issue("svc-billing", SECRET)
    assert tokens.verify(token, SECRET)["sub"] == "svc-billing"


def test_tampered_token_rejected():
    token = tokens.issue("svc-billing", SECRET)
    with pytest.raises(tokens.InvalidToken):
        tokens.verify(token[:-2] + "xx", SECRET)
