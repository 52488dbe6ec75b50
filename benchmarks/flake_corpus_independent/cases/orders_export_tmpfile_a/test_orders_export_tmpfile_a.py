import csv
import os

EXPORT_PATH = "/tmp/orders_export.csv"


def export_orders(rows, path=EXPORT_PATH):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "total"])
        w.writerows(rows)
    return path


def test_export_roundtrip():
    rows = [[i, f"{i * 9.99:.2f}"] for i in range(200)]
    path = export_orders(rows)
    with open(path, newline="") as fh:
        back = list(csv.reader(fh))
    os.remove(path)
    assert back[0] == ["id", "total"]
    assert back[1:] == [[str(a), b] for a, b in rows]
