"""Warehouse stock."""


def load_stock():
    return [{"sku": "A-1", "qty": 4}, {"sku": "B-2", "qty": 0}, {"sku": "C-3", "qty": 9}]


def reserve(stock, sku):
    for i, item in enumerate(stock):
        if item["sku"] == sku:
            return stock.pop(i)
    raise KeyError(sku)
