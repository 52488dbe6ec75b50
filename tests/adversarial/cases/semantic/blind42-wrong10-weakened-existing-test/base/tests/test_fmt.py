from report import percent


def test_percent_one_decimal():
    assert percent(1, 3) == "33.3%"
    assert percent(1, 8) == "12.5%"


def test_percent_of_nothing():
    assert percent(5, 0) == "n/a"
