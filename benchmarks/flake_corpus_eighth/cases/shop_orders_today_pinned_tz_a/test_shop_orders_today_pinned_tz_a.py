import os
import time
import warnings

import pytest

import shop_orders_today_pinned_tz_a_shop as shop


@pytest.fixture
def shop_tz():
    old = os.environ.get("TZ")
    os.environ["TZ"] = "America/Los_Angeles"
    time.tzset()
    yield
    if old is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = old
    time.tzset()


def test_new_order_is_in_todays_orders(shop_tz):
    s = shop.Shop()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        s.place("espresso beans")
    assert [o["item"] for o in s.orders_today()] == ["espresso beans"]
