import csv

import warehouse_csv_dialect_a_export as export


def test_dialect_is_semicolon():
    export.register_dialect()
    d = csv.get_dialect(export.DIALECT)
    assert d.delimiter == ";" and d.lineterminator == "\n"


def test_stock_export_uses_semicolons():
    out = export.export_stock([("A-1", 3, "R1;S2"), ("B-2", 0, "R4")])
    assert out == 'sku;qty;location\nA-1;3;"R1;S2"\nB-2;0;R4\n'
