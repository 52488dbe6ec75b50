from datetime import date

from due_date_b_app import due_in


def test_due_in_three_days():
    today = date.today()
    assert (due_in(3, today) - today).days == 3
