import build_version_suffix_a_version as v


def test_about_dialog_version(monkeypatch):
    assert v.about_text() == "Storefront Admin 1.4.0+dev"


def test_ci_build_suffix(monkeypatch):
    monkeypatch.setenv("CI", "true")
    monkeypatch.setenv("BUILD_NUMBER", "812")
    assert v.version() == "1.4.0+ci.812"
