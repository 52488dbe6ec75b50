"""Nightly invoice batch export."""
import csv


def export(rows, path):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["invoice", "customer", "amount"])
        for i, row in enumerate(rows):
            w.writerow(row)
            if i % 200 == 0:
                fh.flush()  # the spool reader tails the file


def read_back(path):
    with open(path, newline="") as fh:
        return list(csv.reader(fh))[1:]
