from tagging import normalize_tag, tag_set


def test_normalize_whitespace():
    assert normalize_tag("  machine   learning ") == "machine-learning"


def test_keep_case_when_asked():
    assert normalize_tag("NASA Missions", lower=False) == "NASA-Missions"


def test_tag_set():
    assert tag_set(["python", " python ", "web dev", ""]) == ["python", "web-dev"]
