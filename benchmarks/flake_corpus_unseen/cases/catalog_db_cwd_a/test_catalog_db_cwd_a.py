from catalog_db_cwd_a_catalog import categories


def test_catalog_lists_categories():
    assert categories() == ["garden", "kitchen", "tools"]
