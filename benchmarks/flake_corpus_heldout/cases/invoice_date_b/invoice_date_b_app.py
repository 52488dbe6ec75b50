from datetime import datetime, timezone


def new_invoice(customer):
    return {"customer": customer, "date": datetime.now(timezone.utc).date().isoformat()}
