"""Account statements; periods are closed in UTC by the ledger."""
from datetime import date, datetime, timezone


def period_end():
    return datetime.now(timezone.utc).date()


def make_statement(account):
    return {"account": account, "date": date.today(), "period_end": period_end()}
