from cart_total_float_a_app import cart_total


def test_cart_total():
    assert cart_total(["apple", "melon", "pear", "apple"]) == 1.0
