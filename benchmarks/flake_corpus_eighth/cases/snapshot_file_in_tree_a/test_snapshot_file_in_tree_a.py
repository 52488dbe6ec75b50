import pathlib

import snapshot_file_in_tree_a_report as report

HERE = pathlib.Path(__file__).parent
ROWS = [(f"cost centre {i}", i * 10.5) for i in range(40000)]
SNAPSHOT = "".join(f"{n:<20}{a:>12.2f}\n" for n, a in ROWS)


def test_render_matches_snapshot(tmp_path):
    out = HERE / "snapshot_file_in_tree_a_report.actual.txt"
    report.render(ROWS, out)
    try:
        assert out.read_text() == SNAPSHOT
    finally:
        out.unlink()
