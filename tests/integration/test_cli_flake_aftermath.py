"""A failed run's aftermath in its process: who the flake lane blames, through real replays.

A batch run that fails skips the clean-up written after its assertion; a thread it started keeps
running, and a later test that checks for leftover threads fails in every batch after it. That later
test is judged without those failures (they count against the test that failed first); a failure
that left nothing behind blames no one else.
"""

from __future__ import annotations

import json
from typing import Any

from lanegate.cli.main import main
from tests.unit.flake.repos import feature_repo

NOW = "2026-06-01T12:00:00Z"

# The victim is defined first, so the reversed replay (2) runs its batches after the leaker's.
VICTIM_FIRST = """\
import threading

CALLS = []


def test_no_thread_left_behind():
    assert threading.active_count() == 1

"""

LEAKS = (
    VICTIM_FIRST
    + """
def test_leaves_a_thread_when_it_fails():
    CALLS.append(1)
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait, daemon=True)
    worker.start()
    assert len(CALLS) != 3  # a batch run fails before its clean-up: the thread outlives it
    stop.set()
    worker.join()
"""
)

# The same shape, but the first failure leaves the process as it found it, and the later test has
# a flake of its own.
CLEAN = """\
CALLS = []
OWN = []


def test_own_flake():
    OWN.append(1)
    assert len(OWN) != 5


def test_fails_once_and_leaves_nothing():
    CALLS.append(1)
    assert len(CALLS) != 3
"""

# The leaker leaves its thread when it passes too: what follows it is an order dependency, which
# the later test owns (a heldout look-alike, a timer that clears a dict, had it set aside before).
LEAKS_ALWAYS = (
    VICTIM_FIRST
    + """
def test_leaves_a_thread_every_run():
    CALLS.append(1)
    threading.Thread(target=threading.Event().wait, daemon=True).start()
    assert len(CALLS) != 3
"""
)

VICTIM = "tests/test_after.py::test_no_thread_left_behind"
LEAKER = "tests/test_after.py::test_leaves_a_thread_when_it_fails"


def _run(make_repo: Any, source: str) -> tuple[Any, int, dict[str, Any]]:
    repo = feature_repo(make_repo, {"tests/test_after.py": source})
    code = main(["flake", "--repo", str(repo.path), "--base", "main", "--now", NOW])
    data = json.loads((repo.path / ".lanegate" / "flake.json").read_text())
    return repo, code, {t["node_id"]: t for t in data["tests"]}


def test_failures_after_a_leaked_thread_count_against_the_leaker(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo, code, tests = _run(make_repo, LEAKS)
    assert code == 1
    victim, leaker = tests[VICTIM], tests[LEAKER]
    # its own count of calls fails its third run in every process: a state leak of its own
    assert not leaker["deterministic"] and leaker["exposed_by"] == "state-leak"
    assert all(b["after_failure_of"] is None for b in leaker["batches"])
    # the reversed replay: every batch of the victim ran after the leaker's failed run, and failed
    after = [b for b in victim["batches"] if b["replay"] == 2]
    assert after and all(b["failed"] == b["runs"] for b in after)
    assert {b["after_failure_of"] for b in after} == {LEAKER}
    # its failures are kept in the ledger, and judged as the leaker's
    assert victim["deterministic"] and victim["exposed_by"] is None
    assert [r["outcome"] for r in victim["replays"]] == ["passed"] * 3
    printed = capsys.readouterr().out
    assert f"[flake-state-leak] {LEAKER}: a state leak" in printed
    assert f"after it failed, in the same process: {VICTIM} r2.repeat failed x" in printed
    assert f"non-deterministic: {VICTIM}" not in printed
    # replaying the reversed replay shows the same aftermath, and says whose it is
    assert main(["flake", "--repo", str(repo.path), "--base", "main", "--replay", "2"]) == 0
    printed = capsys.readouterr().out
    assert f"repeat batch of {VICTIM}: " in printed
    assert f"(after a failed run of {LEAKER} left the process changed)" in printed


def test_a_failure_that_left_nothing_behind_blames_no_one_else(make_repo) -> None:  # type: ignore[no-untyped-def]
    _, code, tests = _run(make_repo, CLEAN)
    assert code == 1
    for node_id in (
        "tests/test_after.py::test_own_flake",
        "tests/test_after.py::test_fails_once_and_leaves_nothing",
    ):
        test = tests[node_id]
        assert not test["deterministic"], node_id
        assert all(b["after_failure_of"] is None for b in test["batches"]), node_id


def test_a_test_that_leaks_when_it_passes_is_no_ones_excuse(make_repo) -> None:  # type: ignore[no-untyped-def]
    _, code, tests = _run(make_repo, LEAKS_ALWAYS)
    assert code == 1
    victim = tests[VICTIM]
    assert not victim["deterministic"]
    assert [b for b in victim["batches"] if b["replay"] == 2 and b["failed"]]
    assert all(b["after_failure_of"] is None for b in victim["batches"])
