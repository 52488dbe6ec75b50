import pytest

from netaddr import format_hostport, parse_hostport, parse_port


def test_parse_port():
    assert parse_port("8080") == 8080


def test_parse_port_rejects_text():
    with pytest.raises(ValueError):
        parse_port("http")


def test_parse_hostport():
    assert parse_hostport("example.org:443") == ("example.org", 443)
    assert parse_hostport("example.org") == ("example.org", 80)


def test_missing_host():
    with pytest.raises(ValueError):
        parse_hostport(":80")


def test_format():
    assert format_hostport("db", 5432) == "db:5432"
