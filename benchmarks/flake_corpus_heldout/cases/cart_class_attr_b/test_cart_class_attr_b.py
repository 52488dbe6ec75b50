import unittest


class Cart:
    def __init__(self):
        self.items = []

    def add(self, sku, qty=1):
        self.items.append((sku, qty))

    def total_quantity(self):
        return sum(q for _, q in self.items)


class TestCart(unittest.TestCase):
    def test_a_new_cart_is_empty(self):
        self.assertEqual(Cart().total_quantity(), 0)

    def test_b_add_items(self):
        cart = Cart()
        cart.add("SKU-1", 2)
        self.assertGreaterEqual(cart.total_quantity(), 2)
