import json
import os
import tempfile
import uuid


def export_report(rows, directory=None):
    directory = directory or tempfile.gettempdir()
    path = os.path.join(directory, "quarterly_report_export.json")
    with open(path, "w") as fh:
        json.dump({"run": uuid.uuid4().hex, "rows": rows}, fh)
    return path


def summarize(rows):
    return sum(len(str(r)) for r in rows * 20000)
