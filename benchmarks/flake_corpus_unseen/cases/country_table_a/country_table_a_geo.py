"""Country reference data (VAT rates) loaded from the bundled JSON table."""
import json
from pathlib import Path

DATA = Path(__file__).with_name("country_table_a_countries.json")
_TABLE = {}


def load(path=DATA):
    _TABLE.clear()
    for row in json.loads(Path(path).read_text()):
        _TABLE[row["code"]] = row
    return len(_TABLE)


def lookup(code):
    if not _TABLE:
        load()
    return _TABLE[code.upper()]


def vat_rate(code):
    return lookup(code)["vat"]
