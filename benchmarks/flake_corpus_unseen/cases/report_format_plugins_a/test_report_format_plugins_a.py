from report_format_plugins_a_exporters import Exporter, export


def test_csv_is_builtin():
    assert export("csv", [(1, 2)]) == "1,2"


def test_xml_exporter_is_discovered():
    class XmlExporter(Exporter):
        name = "xml"

        def export(self, rows):
            return "<rows>" + "".join(f"<r>{','.join(map(str, r))}</r>" for r in rows) + "</rows>"

    assert Exporter.registry["xml"] is XmlExporter
    assert export("xml", [(1, 2)]) == "<rows><r>1,2</r></rows>"
