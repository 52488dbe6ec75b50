class Exporter:
    delimiter = ","

    def __init__(self, rows):
        self.rows = rows

    def render(self):
        return "\n".join(self.delimiter.join(str(c) for c in row) for row in self.rows)


def test_excel_locale_export():
    Exporter.delimiter = ";"
    assert Exporter([[1, 2]]).render() == "1;2"


def test_render_default():
    assert Exporter([[1, 2], [3, 4]]).render() == "1,2\n3,4"
