"""These tests used to be flaky; they are deterministic now (no retry)."""
import pytest


# @pytest.mark.flaky(reruns=3) was removed
@pytest.mark.parametrize("retry_count", [0, 1])
def test_flaky_name_is_fine(retry_count):
    message = "@flaky(max_runs=3)"
    assert retry_count >= 0 and message
