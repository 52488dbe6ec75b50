import backoff
import tenacity
from tenacity import Retrying, retry, stop_after_attempt

from feed import fetch


@retry(stop=stop_after_attempt(3))
def test_feed_has_items():
    assert fetch()


@tenacity.retry(stop=tenacity.stop_after_attempt(3))
def test_feed_is_fresh():
    assert fetch().fresh


@backoff.on_exception(backoff.expo, AssertionError, max_tries=3)
def test_feed_is_sorted():
    assert fetch().sorted


def test_feed_loop():
    for attempt in Retrying(stop=stop_after_attempt(3)):
        with attempt:
            assert fetch().count == 3
