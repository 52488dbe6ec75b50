import pathlib
import subprocess
import sys

SCRIPT = str(pathlib.Path(__file__).with_name("csv_import_cli_script_a_import.py"))


def test_dry_run_reports_rows(tmp_path):
    data = tmp_path / "products.csv"
    data.write_text("sku,price\nPEN-BLK,0.89\nPAD-A4,\nINK-CYN,17.90\n")
    proc = subprocess.run([sys.executable, SCRIPT, "--dry-run", str(data)], capture_output=True, text=True)
    assert proc.stdout.strip() == "3 rows, 1 without price (dry run)", proc.stderr
    assert proc.returncode == 1
