"""The driver's fork per case, run here without a sandbox: answers, raised types, and the three
ways a case ends without one (a timeout, a crash, an answer past its size)."""

from __future__ import annotations

import json
import os
import time

from lanegate.lanes.property.behaviour.driver import _fork_case
from lanegate.lanes.property.behaviour.encode import encode

CALL = [{"args": [encode(3)], "kwargs": []}]


def _double(x: int) -> int:
    return 2 * x


def _raise(x: int) -> int:
    raise KeyError(x)


def _sleep(x: int) -> int:
    time.sleep(60)
    return x


def _exit(x: int) -> int:
    os._exit(3)


def _big(x: int) -> str:
    return "y" * 300


def test_an_answer_and_a_raised_type() -> None:
    assert _fork_case(_double, CALL, 10.0, 1 << 16) == {"calls": [{"ok": 6}]}
    assert _fork_case(_raise, CALL, 10.0, 1 << 16) == {"calls": [{"raises": "KeyError"}]}


def test_a_case_never_answers_for_long() -> None:
    assert _fork_case(_sleep, CALL, 0.3, 1 << 16) == {"error": "timeout"}


def test_a_crash_and_an_oversized_answer() -> None:
    assert _fork_case(_exit, CALL, 10.0, 1 << 16) == {"error": "crash: exit 3"}
    assert _fork_case(_big, CALL, 10.0, 100) == {"error": "oversized"}
    assert json.dumps(_fork_case(_big, CALL, 10.0, 1000)["calls"][0]["ok"]) == json.dumps("y" * 300)
