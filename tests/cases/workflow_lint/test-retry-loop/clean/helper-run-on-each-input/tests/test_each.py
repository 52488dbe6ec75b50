"""Helpers that swallow a failure, run more than once but never as a retry: every run must pass,
or each run gets another input."""

import json
from contextlib import suppress


def parses(text):
    try:
        json.loads(text)
        return True
    except ValueError:
        return False


def removed(path):
    with suppress(FileNotFoundError):
        path.unlink()
        return True
    return False


def test_every_run_passes():
    assert all(parses("{}") for _ in range(3))


def test_asserted_on_each_round():
    for _ in range(3):
        assert parses("[]")


def test_each_input(tmp_path):
    names = ["a", "b"]
    assert [parses(f'"{n}"') for n in names] == [True, True]
    assert sorted(names, key=lambda n: parses(n)) == names


def test_until_the_folder_is_empty(tmp_path):
    count = 0
    while removed(tmp_path / f"{count}.txt"):
        count += 1
    assert count == 0
