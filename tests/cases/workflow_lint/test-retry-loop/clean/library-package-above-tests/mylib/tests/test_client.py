from mylib import call_with_retry


def test_returns_the_answer():
    assert call_with_retry(lambda: 42) == 42
