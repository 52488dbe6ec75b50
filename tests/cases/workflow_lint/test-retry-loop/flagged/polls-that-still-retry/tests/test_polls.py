"""Shapes next to a wait that re-run a test's act: lint still names them."""

import socket
import time

import pytest
from tenacity import retry, stop_after_attempt, wait_fixed

from app import Client, fetch


@retry(stop=stop_after_attempt(3), wait=wait_fixed(1))
def test_fetch_waits_but_is_the_test():
    assert fetch() == 200


@retry(stop=stop_after_attempt(3))
def until_ok():
    assert fetch() == 200


@retry(stop=stop_after_attempt(3), wait=wait_fixed(1))
def post_until_accepted(client):
    client.post("/items")
    assert client.last_status == 201


@pytest.fixture
@retry(stop=stop_after_attempt(3), wait=wait_fixed(1))
def client():
    return Client()


def test_reset_is_retried():
    while True:
        try:
            fetch()
            break
        except ConnectionResetError:
            time.sleep(0.1)


def test_refused_without_pause():
    while True:
        try:
            fetch()
            break
        except ConnectionRefusedError:
            pass


def test_timeout_of_a_request():
    for _ in range(3):
        try:
            socket.create_connection(("example.org", 80), timeout=1).close()
            break
        except TimeoutError:
            continue
