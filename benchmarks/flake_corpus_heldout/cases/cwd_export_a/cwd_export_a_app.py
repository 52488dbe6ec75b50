import csv
import os


def read_users(path):
    with open(path, newline="") as fh:
        return [row["name"] for row in csv.DictReader(fh)]


def export_users(names, out_name="export.csv"):
    with open(out_name, "w") as fh:
        fh.write("name\n" + "\n".join(names) + "\n")
    return os.path.abspath(out_name)
