import datetime

import annual_statement_day_a_billing as billing


def test_statement_in_november():
    signup = datetime.date.today()
    statement = billing.annual_statement_date(signup.day, signup.year)
    assert (statement.year, statement.month) == (signup.year, 11)
