from order_tags_b_orders import Order


def test_new_order_has_only_its_own_tags():
    order = Order("SKU-1", 1)
    assert order.tags == []
    order.tag("gift")
    assert order.tags == ["gift"]


def test_bulk_order_is_tagged():
    order = Order("SKU-2", 500)
    if order.qty >= 100:
        order.tag("bulk")
    assert "bulk" in order.tags
