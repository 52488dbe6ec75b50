from tag_normalize_b_app import normalize_tags


def test_normalize_tags_keeps_first_seen_order():
    assert normalize_tags(["Beta", "alpha ", "beta", ""]) == "beta,alpha"
