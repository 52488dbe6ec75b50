import pathlib
import subprocess
import sys
import time

CLI = pathlib.Path(__file__).resolve().parent / "barcode_label_cli_a_label.py"


def test_cli_writes_label(tmp_path):
    out = tmp_path / "label.pgm"
    proc = subprocess.Popen([sys.executable, str(CLI), "ORD-1001", str(out)])
    proc.wait(timeout=60)
    try:
        assert out.exists()
        assert out.read_bytes().startswith(b"P5 96 96 255\n")
    finally:
        proc.wait(timeout=60)
