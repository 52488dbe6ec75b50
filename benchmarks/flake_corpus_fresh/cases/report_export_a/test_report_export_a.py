import os

from report_export_a_export import export_sales, latest_export, summarize

ROWS = [
    {"sku": "A-1", "qty": 2, "price": "10.00"},
    {"sku": "B-7", "qty": 1, "price": "22.00"},
]


def test_export_writes_csv():
    path = export_sales(ROWS)
    assert os.path.getsize(path) > 0


def test_summary_of_latest_export():
    assert summarize(latest_export()) == {"lines": 2, "revenue": 42.0}
