from datetime import date

from renewal_next_month_a_billing import next_renewal


def test_monthly_plan_renews_next_month():
    today = date.today()
    renewal = next_renewal()
    assert renewal > today
    assert 28 <= (renewal - today).days <= 31
