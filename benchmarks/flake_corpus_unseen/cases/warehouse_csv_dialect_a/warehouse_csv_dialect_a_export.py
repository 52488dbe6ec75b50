"""Stock export for the warehouse partner (semicolon separated, as their ERP expects)."""
import csv
import io

DIALECT = "warehouse"


def register_dialect():
    csv.register_dialect(DIALECT, delimiter=";", quoting=csv.QUOTE_MINIMAL, lineterminator="\n")




def export_stock(rows):
    buf = io.StringIO()
    writer = csv.writer(buf, dialect=DIALECT)
    writer.writerow(["sku", "qty", "location"])
    writer.writerows(rows)
    return buf.getvalue()
