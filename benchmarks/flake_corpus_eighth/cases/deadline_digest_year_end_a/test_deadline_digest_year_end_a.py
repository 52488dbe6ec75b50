import datetime

import deadline_digest_year_end_a_digest as digest


def test_digest_lists_deadline_in_three_days():
    today = datetime.date.today()
    soon, later = today + datetime.timedelta(days=3), today + datetime.timedelta(days=40)
    assert digest.upcoming([later, soon], today) == [soon]
