"""Help-desk tickets."""
import itertools



class TicketDesk:
    def __init__(self):
        self.tickets = {}
        self._numbers = itertools.count(1)

    def open(self, subject):
        number = f"T-{next(self._numbers):04d}"
        self.tickets[number] = {"subject": subject, "state": "open"}
        return number

    def close(self, number):
        self.tickets[number]["state"] = "closed"
