import glob
import os
import tempfile

from invoice_render_tmpfiles_a_render import render_invoice


def test_render_leaves_no_temp_files(tmp_path):
    tmpdir = tempfile.gettempdir()
    pattern = os.path.join(tmpdir, "invoice-render-*")
    before = set(glob.glob(pattern))
    for n in range(15):
        render_invoice(f"2026-{n:04d}", [("A", 1999), ("B", 500)], workdir=tmpdir)
    assert set(glob.glob(pattern)) == before
