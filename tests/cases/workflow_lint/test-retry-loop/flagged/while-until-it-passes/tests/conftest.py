import pytest

from api import connect


@pytest.fixture
def connection():
    while True:
        try:
            conn = connect()
        except OSError:
            continue
        else:
            return conn
