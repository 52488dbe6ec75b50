"""Spreadsheet export: rows are spooled into an anonymous temporary file before they are streamed out."""
import csv
import tempfile


def export_rows(rows):
    with tempfile.TemporaryFile("w+", newline="", encoding="utf-8") as spool:
        writer = csv.writer(spool)
        for row in rows:
            writer.writerow(row)
        spool.seek(0)
        return spool.read()
