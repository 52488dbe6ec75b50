import pytest

from plugin_registry_b_app import export, register, registered_exporters, unregister


@pytest.fixture
def xml_exporter():
    register("xml", lambda rows: "<rows/>")
    yield "xml"
    unregister("xml")


def test_default_exporters_only():
    assert registered_exporters() == ["csv", "json"]


def test_custom_exporter_can_be_registered(xml_exporter):
    assert xml_exporter in registered_exporters()
    assert export(xml_exporter, []) == "<rows/>"
