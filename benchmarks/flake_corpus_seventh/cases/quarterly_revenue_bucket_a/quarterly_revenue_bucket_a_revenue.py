"""Finance dashboard: revenue per calendar quarter; the books are kept in UTC."""
from collections import defaultdict
from datetime import datetime, timezone
from decimal import Decimal


def quarter(ts):
    d = datetime.fromtimestamp(ts, tz=timezone.utc)
    return f"{d.year}-Q{(d.month - 1) // 3 + 1}"


def revenue_by_quarter(orders):
    out = defaultdict(Decimal)
    for ts, amount in orders:
        out[quarter(ts)] += Decimal(amount)
    return dict(out)
