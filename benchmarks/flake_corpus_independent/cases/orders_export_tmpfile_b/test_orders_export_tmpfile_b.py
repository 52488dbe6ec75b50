import csv


def export_orders(rows, path):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "total"])
        w.writerows(rows)
    return path


def test_export_roundtrip(tmp_path):
    rows = [[i, f"{i * 9.99:.2f}"] for i in range(200)]
    path = export_orders(rows, tmp_path / "orders_export.csv")
    with open(path, newline="") as fh:
        back = list(csv.reader(fh))
    assert back[0] == ["id", "total"]
    assert back[1:] == [[str(a), b] for a, b in rows]
