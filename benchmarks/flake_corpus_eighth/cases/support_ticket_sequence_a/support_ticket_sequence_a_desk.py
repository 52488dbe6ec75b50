"""Help-desk tickets."""
import itertools

_numbers = itertools.count(1)


class TicketDesk:
    def __init__(self):
        self.tickets = {}

    def open(self, subject):
        number = f"T-{next(_numbers):04d}"
        self.tickets[number] = {"subject": subject, "state": "open"}
        return number

    def close(self, number):
        self.tickets[number]["state"] = "closed"
