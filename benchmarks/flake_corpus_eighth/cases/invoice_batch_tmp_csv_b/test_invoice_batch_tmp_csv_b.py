import uuid

import invoice_batch_tmp_csv_b_batch as batch

BATCH = uuid.uuid4().hex[:8]
ROWS = [[f"INV-{BATCH}-{i:06d}", f"cust{i % 97}", f"{i * 1.25:.2f}"] for i in range(40000)]


def test_batch_export_roundtrip(tmp_path):
    path = "/tmp/invoice_batch_tmp_csv_b-invoices.csv"
    batch.export(ROWS, path)
    assert batch.read_back(path) == ROWS
