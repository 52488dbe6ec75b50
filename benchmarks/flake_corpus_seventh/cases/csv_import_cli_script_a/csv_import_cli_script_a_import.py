"""Command-line product import: python csv_import_cli_script_a_import.py [--dry-run] FILE.csv"""
import argparse
import csv
import sys


def main(argv=None):
    ap = argparse.ArgumentParser(prog="import")
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("file")
    args = ap.parse_args(argv)
    with open(args.file, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    bad = [r["sku"] for r in rows if not r["price"]]
    print(f"{len(rows)} rows, {len(bad)} without price" + (" (dry run)" if args.dry_run else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
