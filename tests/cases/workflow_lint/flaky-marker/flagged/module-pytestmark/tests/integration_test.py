import pytest

pytestmark = [pytest.mark.slow, pytest.mark.flaky(reruns=1)]


def test_one():
    assert True
