"""Waits that only re-read (a server's answer to a GET, another actor's state), and a helper whose
only `except` guards its clean-up: none of them re-runs an act until it passes."""

import asyncio
import contextlib
import os
import shutil
import tempfile
import time
from contextlib import ExitStack
from http import HTTPStatus
from urllib.error import HTTPError, URLError
from urllib.request import urlopen

import pytest
import requests


@pytest.fixture
def index_url(start_index_server):
    url = start_index_server()
    while True:
        try:
            with urlopen(url) as response:
                if response.code == HTTPStatus.OK:
                    break
        except (URLError, HTTPError):
            continue
    return url


def wait_for(url, pause=0.1):
    while True:
        try:
            requests.get(url)
        except Exception:
            time.sleep(pause)
        else:
            break


def test_every_address_answers(status_port):
    start = time.monotonic()
    while True:
        try:
            for host in ("localhost", "127.0.0.1"):
                requests.get(f"http://{host}:{status_port}/status").raise_for_status()
            break
        except Exception:
            if time.monotonic() - start > 10:
                raise
            time.sleep(0.1)


async def wait_for_states(expected, worker):
    for _ in range(10):
        try:
            for key, state in expected.items():
                assert worker.tasks[key].state == state
            return
        except AssertionError:
            await asyncio.sleep(0.1)
    raise AssertionError(expected)


@contextlib.contextmanager
def scratch_file(allow_cleanup_failure=False):
    folder = tempfile.mkdtemp()
    try:
        yield os.path.join(folder, "data.bin")
    finally:
        try:
            shutil.rmtree(folder)
        except OSError:
            if not allow_cleanup_failure:
                raise


def test_many_scratch_files():
    with ExitStack() as stack:
        paths = [stack.enter_context(scratch_file()) for _ in range(3)]
    assert len(set(paths)) == 3
