# coding: utf-8
"""Declares UTF-8 but holds a Latin-1 byte: é."""


def test_x():
    try:
        pass
    except OSError:
        pass
