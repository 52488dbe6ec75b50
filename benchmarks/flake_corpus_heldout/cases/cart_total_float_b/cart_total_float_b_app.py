PRICES = {"apple": 0.1, "melon": 0.7, "pear": 0.2}


def cart_total(skus):
    return sum(PRICES[s] for s in set(skus))
