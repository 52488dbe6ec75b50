"""Parcel tariffs; the export tool is run from the data directory by the ops cron job."""
import csv
import pathlib

DATA_DIR = pathlib.Path(__file__).resolve().parent / "tariff_table_chdir_b_data"


def load():
    with open(DATA_DIR / "tariff_table_chdir_b_tariffs.csv", newline="") as fh:
        return [dict(r, max_kg=float(r["max_kg"]), price=float(r["price"])) for r in csv.DictReader(fh)]


def rate(zone, kg):
    for row in load():
        if row["zone"] == zone and kg <= row["max_kg"]:
            return row["price"]
    raise LookupError(zone)


def export_summary():
    return ";".join(f"{r['zone']}:{r['price']}" for r in load())
