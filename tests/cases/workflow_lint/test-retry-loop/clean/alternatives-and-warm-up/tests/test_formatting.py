"""Loops that look for a usable alternative, or warm something up, before the test's own act."""

import locale
import socket

import pytest

from fmt import format_number


@pytest.fixture
def german_locale():
    for name in ("de_DE.UTF-8", "de_DE.utf8", "de_DE"):
        try:
            locale.setlocale(locale.LC_ALL, name)
            break
        except locale.Error:
            continue
    else:
        pytest.skip("no German locale installed")
    yield
    locale.setlocale(locale.LC_ALL, "C")


def free_port():
    port = 20000
    while True:
        sock = socket.socket()
        try:
            sock.bind(("127.0.0.1", port))
            return port
        except OSError:
            port += 1
        finally:
            sock.close()


def test_thousands_separator(german_locale):
    for _ in range(3):  # warm the formatter's cache
        format_number(1.5)
    assert format_number(1234567) == "1.234.567"
