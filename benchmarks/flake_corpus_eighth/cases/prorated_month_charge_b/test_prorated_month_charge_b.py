import calendar
import datetime

import prorated_month_charge_b_prorate as prorate


def test_full_month_costs_monthly_price():
    today = datetime.date.today()
    days = calendar.monthrange(today.year, today.month)[1]
    assert prorate.prorate(3100, days, today) == 3100
