PRICES = {"lamp": 4.99, "desk": 12.0, "chair": 7.77, "pen": 0.45, "shelf": 9.99}


def cart(products):
    return {p: PRICES[p] for p in set(products)}


def cart_total(c):
    return sum(c.values())


def test_cart_total():
    c = cart(["lamp", "desk", "chair", "pen", "shelf", "pen"])
    assert cart_total(c) == 35.2
