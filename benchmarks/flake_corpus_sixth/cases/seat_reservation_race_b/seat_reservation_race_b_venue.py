"""Seat reservations for a small venue; the box office and the web shop reserve concurrently."""
import hashlib
import threading
import time


def authorize_payment(who):
    time.sleep(0.002)  # stand-in for the payment gateway round trip
    return hashlib.sha1(who.encode()).hexdigest()[:8]


def issue_ticket(who, seat):
    return f"T-{seat}-{authorize_payment(who)}"


class Venue:
    def __init__(self, seats):
        self.free = seats
        self.sold = []
        self._lock = threading.Lock()

    def reserve(self, who):
        if self.free > 0:
            ticket = issue_ticket(who, self.free)
            self.free -= 1
            self.sold.append(ticket)
            return ticket
        return None
