"""The same shapes retrying a test's failure: lint still names them."""

import os
import time

from OpenSSL import SSL

from app import fetch


def test_deadline_on_an_assertion():
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            assert fetch() == 200
            break
        except AssertionError:
            time.sleep(0.1)


def test_want_read_and_anything_else(conn):
    while True:
        try:
            data = conn.recv(1024)
            break
        except (SSL.WantReadError, ValueError):
            pass
    assert data


def test_reads_the_error_but_forgives_any(conn):
    for _ in range(3):
        try:
            assert fetch() == 200
            break
        except Exception as error:
            if "timeout" in str(error):
                continue
            raise


def test_outer_a():
    def attempt():
        try:
            assert os.getpid() % 2
            return True
        except AssertionError:
            return False

    for _ in range(3):
        if attempt():
            break


def test_outer_b():
    def attempt():
        return os.getpid() > 0

    assert attempt()
