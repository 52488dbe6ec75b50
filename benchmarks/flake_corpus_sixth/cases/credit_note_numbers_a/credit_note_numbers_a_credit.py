"""Credit notes (refund documents) with gap-free numbers."""
import itertools

_numbers = itertools.count(1)


class CreditNoteBook:
    def __init__(self):
        self.issued = []

    def issue(self, invoice, amount_cents):
        number = f"CN-{next(_numbers):05d}"
        self.issued.append((number, invoice, amount_cents))
        return number


def format_amount(cents):
    return f"-{cents // 100}.{cents % 100:02d} EUR"
