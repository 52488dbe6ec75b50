import statement_period_tz_a_statements as statements


def test_statement_dated_end_of_period():
    st = statements.make_statement("ACC-1")
    assert st["date"] == st["period_end"]
