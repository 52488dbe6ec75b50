class Exporter:
    delimiter = ","

    def __init__(self, rows, delimiter=None):
        self.rows = rows
        if delimiter is not None:
            self.delimiter = delimiter

    def render(self):
        return "\n".join(self.delimiter.join(str(c) for c in row) for row in self.rows)


def test_excel_locale_export():
    assert Exporter([[1, 2]], delimiter=";").render() == "1;2"


def test_render_default():
    assert Exporter([[1, 2], [3, 4]]).render() == "1,2\n3,4"
