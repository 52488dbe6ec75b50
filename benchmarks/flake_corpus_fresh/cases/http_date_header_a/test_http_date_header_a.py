from email.utils import parsedate_to_datetime

from http_date_header_a_httpdate import http_date


def test_last_modified_header_round_trips():
    ts = 1_700_000_000
    assert parsedate_to_datetime(http_date(ts)).timestamp() == ts
