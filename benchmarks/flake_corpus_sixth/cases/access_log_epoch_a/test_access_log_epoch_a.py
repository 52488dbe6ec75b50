import access_log_epoch_a_logparse as logparse


def test_log_timestamp_to_epoch():
    line = '203.0.113.9 - - [29/Mar/2026:01:30:00 +0000] "GET /health HTTP/1.1" 200 2'
    assert logparse.parse_line(line) == {"ip": "203.0.113.9", "epoch": 1774747800}
