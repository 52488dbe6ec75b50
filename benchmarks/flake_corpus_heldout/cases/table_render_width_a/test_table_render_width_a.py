from table_render_width_a_app import render


def test_render_truncates_long_cells():
    rows = [["id", "description"], ["1", "x" * 200]]
    lines = render(rows).splitlines()
    assert len(lines[1]) == 80
