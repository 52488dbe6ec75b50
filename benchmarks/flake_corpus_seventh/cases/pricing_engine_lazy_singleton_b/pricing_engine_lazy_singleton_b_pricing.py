"""Pricing engine: the discount rules are compiled on first use and shared by all request threads."""
import re
import threading

RULES = [f"sku:PRD-{i:04d} qty>={i % 7 + 1} -> {i % 30}%" for i in range(6000)]
RULE = re.compile(r"sku:(\S+) qty>=(\d+) -> (\d+)%")

_engine = None
_lock = threading.Lock()


class PricingEngine:
    loads = 0

    def __init__(self, rules):
        PricingEngine.loads += 1
        self.rules = {}
        for text in rules:
            sku, qty, pct = RULE.match(text).groups()
            self.rules[sku] = (int(qty), int(pct))

    def price(self, sku, unit_cents, qty):
        min_qty, pct = self.rules.get(sku, (0, 0))
        total = unit_cents * qty
        return total - total * pct // 100 if qty >= min_qty else total


def get_engine():
    global _engine
    if _engine is None:
        _engine = PricingEngine(RULES)
    return _engine


def quote(sku, unit_cents, qty):
    return get_engine().price(sku, unit_cents, qty)
