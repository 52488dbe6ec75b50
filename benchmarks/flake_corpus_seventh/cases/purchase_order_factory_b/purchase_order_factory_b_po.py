"""Purchase orders sent to suppliers."""
from decimal import Decimal


def validate_po(po):
    errors = []
    if not po["lines"]:
        errors.append("no lines")
    for i, line in enumerate(po["lines"]):
        if line["qty"] < 1:
            errors.append(f"line {i}: quantity must be at least 1")
        if Decimal(line["unit_price"]) <= 0:
            errors.append(f"line {i}: price must be positive")
    return errors


def po_total(po):
    return sum(Decimal(line["unit_price"]) * line["qty"] for line in po["lines"])
