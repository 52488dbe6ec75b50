import datetime

import membership_renewal_leap_day_a_members as members


def test_renewal_one_year_later():
    joined = datetime.date.today()
    renewal = members.renewal_date(joined)
    assert (renewal - joined).days in (365, 366)
