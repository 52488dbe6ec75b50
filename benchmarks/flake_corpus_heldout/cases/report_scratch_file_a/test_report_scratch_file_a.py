import json

from report_scratch_file_a_app import export_report, summarize


def test_export_roundtrip():
    rows = [{"q": 1, "rev": 10}, {"q": 2, "rev": 12}]
    path = export_report(rows)
    with open(path) as fh:
        run_id = json.load(fh)["run"]
    summarize(rows)
    with open(path) as fh:
        data = json.load(fh)
    assert data["run"] == run_id and data["rows"] == rows
