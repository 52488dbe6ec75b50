# -*- coding: iso-8859-5 -*-
"""A module declaring its encoding (PEP 263): Привет, read as Cyrillic."""

GREETING = "Привет"


def test_greeting():
    try:
        assert GREETING.startswith("П")
    except AttributeError:
        raise
