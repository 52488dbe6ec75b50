"""Credit notes (refund documents) with gap-free numbers."""
import itertools



class CreditNoteBook:
    def __init__(self):
        self.issued = []
        self._numbers = itertools.count(1)

    def issue(self, invoice, amount_cents):
        number = f"CN-{next(self._numbers):05d}"
        self.issued.append((number, invoice, amount_cents))
        return number


def format_amount(cents):
    return f"-{cents // 100}.{cents % 100:02d} EUR"
