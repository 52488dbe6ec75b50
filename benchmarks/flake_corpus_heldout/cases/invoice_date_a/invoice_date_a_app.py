from datetime import date


def new_invoice(customer):
    return {"customer": customer, "date": date.today().isoformat()}
