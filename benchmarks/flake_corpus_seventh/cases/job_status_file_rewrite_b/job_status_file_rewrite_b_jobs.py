"""Background export job that publishes its progress in a small JSON status file (read by the web UI)."""
import json
import os
import threading


def write_status(path, status):
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(status, fh)
    os.replace(tmp, path)


def read_status(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def run_export(path, rows):
    lines = []
    for i in range(rows):
        lines.append(f"{i};SKU-{i:06d};{i * 0.37:.2f};EUR\n")  # stands in for formatting one CSV row
        if i % 25000 == 0:
            write_status(path, {"state": "running", "rows": i, "total": rows})
    write_status(path, {"state": "done", "rows": rows, "total": rows})
    return lines


def start_export(path, rows):
    write_status(path, {"state": "queued", "rows": 0, "total": rows})
    t = threading.Thread(target=run_export, args=(path, rows))
    t.start()
    return t
