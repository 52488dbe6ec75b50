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


def under_some_locale(candidates):
    """Run the decorated test under the first of `candidates` this machine has."""

    def decorate(test):
        def wrapper(*args, **kwargs):
            previous = locale.setlocale(locale.LC_ALL)
            while candidates:
                try:
                    locale.setlocale(locale.LC_ALL, candidates[0])
                except locale.Error:
                    candidates.pop(0)  # not installed here: the next one
                else:
                    try:
                        return test(*args, **kwargs)
                    finally:
                        locale.setlocale(locale.LC_ALL, previous)
            pytest.skip("none of the locales is installed")

        return wrapper

    return decorate


@under_some_locale(["fr_FR.UTF-8", "fr_FR"])
def test_french_decimal_comma():
    assert format_number(1.5) == "1,5"


def _load_backends():
    # importing a backend the first time fills the registry the tests read; one that is not
    # installed here is simply left out
    for name in ("fast", "pure"):
        try:
            backend = locale_backend(name)
            assert backend.ready
        except Exception:
            pass


def locale_backend(name):
    return __import__(f"fmt.backends.{name}", fromlist=["backend"]).backend


_load_backends()
