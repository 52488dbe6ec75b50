import csv
import io


def to_csv(records):
    extra = {key for record in records for key in record} - {"id"}
    columns = ["id"] + sorted(extra)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    return buf.getvalue()
