from helpers import retry_on, retry_on_failure

from service import Client


@retry_on_failure()
def test_latency_is_low():
    assert Client().latency() < 0.1


@retry_on(ConnectionError)
def test_fetch():
    assert Client().fetch() == b"ok"
