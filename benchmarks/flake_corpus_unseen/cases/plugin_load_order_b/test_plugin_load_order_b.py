from plugin_load_order_b_plugins import load_order

REQUIRES = {
    "api": ["db", "cache", "config"],
    "cache": ["config"],
    "config": [],
    "db": ["config"],
}


def test_plugins_load_in_dependency_order():
    assert load_order(REQUIRES) == ["config", "cache", "db", "api"]
