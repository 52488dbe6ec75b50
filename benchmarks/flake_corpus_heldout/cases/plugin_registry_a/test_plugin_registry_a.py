from plugin_registry_a_app import export, register, registered_exporters


def test_default_exporters_only():
    assert registered_exporters() == ["csv", "json"]


def test_custom_exporter_can_be_registered():
    register("xml", lambda rows: "<rows/>")
    assert "xml" in registered_exporters()
    assert export("xml", []) == "<rows/>"
