"""Invoice rendering shells out to a converter that needs a real file; we clean up afterwards."""
import os
import tempfile
import time


def render_invoice(invoice_id, lines, workdir=None):
    fd, path = tempfile.mkstemp(prefix="invoice-render-", suffix=".html", dir=workdir)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(f"<h1>Invoice {invoice_id}</h1>")
            for sku, cents in lines:
                f.write(f"<p>{sku}: {cents / 100:.2f}</p>")
        time.sleep(0.02)  # the converter reads the file
        with open(path) as f:
            return f.read().encode()
    finally:
        os.unlink(path)
