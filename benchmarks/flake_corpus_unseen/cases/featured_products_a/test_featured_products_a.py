from featured_products_a_catalog import Product, featured

PRODUCTS = [Product(f"SKU-{i:02d}", 990 + 100 * i, on_sale=i % 3 == 0) for i in range(12)]


def test_homepage_features_three_distinct_products():
    picks = featured(PRODUCTS)
    assert len(set(picks)) == 3


def test_homepage_features_a_deal():
    picks = featured(PRODUCTS)
    assert any(p.on_sale for p in picks), [p.sku for p in picks]
