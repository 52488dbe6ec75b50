import pytest

from service import start


def _started(tries=3):
    try:
        return start()
    except ConnectionError:
        if tries:
            return _started(tries - 1)
        raise


@pytest.fixture
def service():
    return _started()
