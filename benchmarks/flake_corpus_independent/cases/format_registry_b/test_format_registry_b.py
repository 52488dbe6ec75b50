_FORMATS = {"json": "application/json"}


def register_format(name, mime):
    _FORMATS[name] = mime


def available_formats():
    return sorted(_FORMATS)


def test_register_custom_format():
    register_format("yaml", "application/yaml")
    assert "yaml" in available_formats()


def test_available_formats_default():
    assert available_formats() == ["json"]
