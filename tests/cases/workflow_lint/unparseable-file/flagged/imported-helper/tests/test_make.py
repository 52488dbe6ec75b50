from tests.util import make


def test_make():
    assert make()
