def collect_tags(item, tags=[]):
    tags.extend(t.strip().lower() for t in item.get("tags", ()))
    return tags


def test_collect_tags():
    assert collect_tags({"tags": ["db", "slow"]}) == ["db", "slow"]
    assert collect_tags({"tags": ["api"]}, ["x"]) == ["x", "api"]
