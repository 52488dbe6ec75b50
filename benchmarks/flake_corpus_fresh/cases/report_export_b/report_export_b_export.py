import csv
import os
import tempfile

EXPORT_DIR = tempfile.mkdtemp(prefix="report_export_b-exports-")


def export_sales(rows):
    path = os.path.join(EXPORT_DIR, "sales.csv")
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=["sku", "qty", "price"])
        writer.writeheader()
        writer.writerows(rows)
    return path


def latest_export():
    return os.path.join(EXPORT_DIR, "sales.csv")


def summarize(path):
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    return {"lines": len(rows), "revenue": sum(int(r["qty"]) * float(r["price"]) for r in rows)}
