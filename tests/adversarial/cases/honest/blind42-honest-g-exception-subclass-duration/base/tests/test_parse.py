from durations import format_duration, parse_duration, parse_or_default


def test_parse():
    assert parse_duration("90s") == 90
    assert parse_duration("5m") == 300
    assert parse_duration("2h") == 7200


def test_format():
    assert format_duration(7200) == "2h"
    assert format_duration(61) == "61s"
    assert format_duration(0) == "0s"


def test_default_for_bad_number():
    assert parse_or_default("abcm", 30) == 30
