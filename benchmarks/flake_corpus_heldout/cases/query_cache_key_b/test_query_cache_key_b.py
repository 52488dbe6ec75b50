from query_cache_key_b_app import cache_key


def test_cache_key_ignores_param_order():
    a = cache_key("/prices", ["region", "tier", "currency"])
    b = cache_key("/prices", ["currency", "tier", "region"])
    assert a == b
