import pytest

import warehouse_stock_fixture_b_stock as stock_mod


@pytest.fixture(scope="module")
def stock():
    return stock_mod.load_stock()


def test_catalog_lists_all_items(stock):
    assert [i["sku"] for i in stock] == ["A-1", "B-2", "C-3"]


def test_reserve_removes_item(stock):
    assert stock_mod.reserve(stock, "A-1")["qty"] == 4
    assert len(stock) == 2
