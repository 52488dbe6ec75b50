_FORMATS = {"json": "application/json"}


def available_formats():
    return sorted(_FORMATS)


def test_register_custom_format(monkeypatch):
    monkeypatch.setitem(_FORMATS, "yaml", "application/yaml")
    assert "yaml" in available_formats()


def test_available_formats_default():
    assert available_formats() == ["json"]
