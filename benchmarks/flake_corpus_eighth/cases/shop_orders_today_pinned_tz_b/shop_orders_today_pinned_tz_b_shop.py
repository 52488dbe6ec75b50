"""Orders of a Los Angeles shop; the dashboard shows today's orders (shop-local day)."""
import datetime


class Shop:
    def __init__(self):
        self.orders = []

    def place(self, item):
        self.orders.append({"item": item, "at": datetime.datetime.now(datetime.timezone.utc)})

    def orders_today(self):
        today = datetime.date.today()
        return [o for o in self.orders if o["at"].astimezone().date() == today]
