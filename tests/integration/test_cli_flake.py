"""`lanegate flake` end to end: real git repos, real pytest replays, real hostile tests."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from lanegate.cli.main import main
from tests.unit.flake.repos import feature_repo

NOW = "2026-06-01T12:00:00Z"

STABLE = """\
import random


def test_sum():
    assert sum([1, 2, 3]) == 6


def test_seeded():
    assert random.Random(7).random() == random.Random(7).random()
"""

FLAKY = """\
import random

SEEN = []


def test_victim_sees_nothing():
    assert SEEN == []


def test_polluter():
    SEEN.append(1)


def test_coin():
    assert random.random() < 0.5
"""


def flake(repo: Path, *args: str) -> int:
    return main(["flake", "--repo", str(repo), "--base", "main", "--now", NOW, *args])


def ledger(repo: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((repo / ".lanegate" / "flake.json").read_text())
    return data


def outcomes(data: dict[str, Any], node_id: str) -> list[str]:
    (test,) = [t for t in data["tests"] if t["node_id"] == node_id]
    return [r["outcome"] for r in test["replays"]]


def test_stable_new_test_passes_with_retry_options_in_the_environment(
    make_repo, monkeypatch, capsys
) -> None:  # type: ignore[no-untyped-def]
    old = "def test_old():\n    assert True\n"
    lease = {
        "test_id": "tests/test_old.py::test_old",
        "class": "timing",
        "leased_at": "2026-05-01T00:00:00Z",
        "expires_at": "2026-07-01T00:00:00Z",
        "root_cause_hash": None,
        "max_reruns": 1,
        "reruns_used": 0,
    }
    repo = feature_repo(
        make_repo,
        {"tests/test_new.py": STABLE},
        {
            "tests/test_old.py": old,
            "flake_leases.json": json.dumps({"schema_version": 1, "leases": [lease]}),
        },
    )
    body = repo.path.parent / "body.md"
    body.write_text("lanegate-lease: tests/test_old.py::test_old expires 2026-07-01T00:00:00Z\n")
    # Were these to reach pytest, every replay would stop on an unknown option or plugin.
    monkeypatch.setenv("PYTEST_ADDOPTS", "--reruns 5 --reruns-delay 1")
    monkeypatch.setenv("PYTEST_PLUGINS", "pytest_rerunfailures_missing")
    assert flake(repo.path, "--pr-body", str(body)) == 0
    assert "flake: pass" in capsys.readouterr().out
    data = ledger(repo.path)
    assert data["deterministic"] is True
    assert [t["node_id"] for t in data["tests"]] == [
        "tests/test_new.py::test_sum",
        "tests/test_new.py::test_seeded",
    ]
    replays = data["replays"]
    assert len(replays) == 3
    assert len({r["hash_seed"] for r in replays}) == 3
    assert [r["order"] for r in replays] == ["forward", "reverse", "shuffled"]
    assert len({r["tz"] for r in replays}) == 3
    for record in replays:
        assert "no:rerunfailures" in record["command"] and "no:flaky" in record["command"]
        assert f"PYTHONHASHSEED={record['hash_seed']}" in record["command"]
        assert record["exit_code"] == 0 and not record["timed_out"]
    seeded = outcomes(data, "tests/test_new.py::test_seeded")
    assert seeded == ["passed"] * 3  # one base run per replay
    (test,) = [t for t in data["tests"] if t["node_id"] == "tests/test_new.py::test_seeded"]
    assert sum(b["passed"] for b in test["batches"]) > 3  # and the budget's batches: it uses random
    (evaluation,) = data["leases"]
    assert evaluation["pr_body_checked"] and not evaluation["touched_by_diff"]
    assert evaluation["pr_body_expires_at"] == "2026-07-01T00:00:00Z"


def test_flaky_new_tests_fail_and_a_replay_reproduces(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, {"tests/test_flaky.py": FLAKY})
    assert flake(repo.path) == 1
    printed = capsys.readouterr().out
    assert "tests/test_flaky.py::test_victim_sees_nothing: failed in replay 2 run 1" in printed
    assert "PYTHONHASHSEED=" in printed and "order=reverse" in printed and "TZ=UTC0" in printed
    data = ledger(repo.path)
    assert data["deterministic"] is False
    victim = outcomes(data, "tests/test_flaky.py::test_victim_sees_nothing")
    assert victim[:2] == ["passed", "failed"]  # the reversed replay runs the polluter first
    (coin,) = [t for t in data["tests"] if t["node_id"] == "tests/test_flaky.py::test_coin"]
    assert not coin["deterministic"] and coin["exposed_by"] in ("repeat", "order", "hash-seed")
    assert outcomes(data, "tests/test_flaky.py::test_polluter") == ["passed"] * 3

    assert flake(repo.path, "--replay", "2") == 0
    printed = capsys.readouterr().out
    assert "order=reverse" in printed and "reproduced the recorded outcomes" in printed
    assert "failed   tests/test_flaky.py::test_victim_sees_nothing run 1" in printed
    assert flake(repo.path, "--replay", "9") == 2


HOSTILE = {
    "tests/test_exit.py": "import os\n\n\ndef test_exits_early():\n    os._exit(0)\n",
    "tests/test_patch.py": """\
import _pytest.reports

_real = _pytest.reports.TestReport.from_item_and_call.__func__


def _always_passed(cls, item, call):
    report = _real(cls, item, call)
    report.outcome = "passed"
    report.longrepr = None
    return report


_pytest.reports.TestReport.from_item_and_call = classmethod(_always_passed)


def test_wrong_but_reported_passed():
    assert 1 == 2
""",
    "tests/test_leftover.py": """\
import subprocess
import sys


def test_leaves_a_process():
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "lanegate-leftover-marker"])
""",
    "tests/test_parent.py": """\
import os
import signal


def test_kills_parent():
    os.kill(os.getppid(), signal.SIGKILL)
""",
}


def _marker_processes() -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if b"lanegate-leftover-marker" in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def test_hostile_tests_never_turn_into_passes(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, HOSTILE)
    assert flake(repo.path) == 1
    data = ledger(repo.path)
    for node_id in (
        "tests/test_exit.py::test_exits_early",
        "tests/test_patch.py::test_wrong_but_reported_passed",
        "tests/test_leftover.py::test_leaves_a_process",
        "tests/test_parent.py::test_kills_parent",
    ):
        seen = outcomes(data, node_id)
        assert set(seen) != {"passed"}, (node_id, seen)
    # Whatever ran, nothing it started outlives the lane.
    assert _marker_processes() == []


def test_hanging_test_times_out_and_its_group_is_killed(make_repo) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(
        make_repo,
        {"tests/test_hang.py": "import time\n\n\ndef test_hangs():\n    time.sleep(120)\n"},
        {"lanegate.toml": "[lane]\nmax_wall_seconds = 6\n"},
    )
    assert flake(repo.path) == 1
    data = ledger(repo.path)
    assert all(r["timed_out"] and r["exit_code"] is None for r in data["replays"])
    assert set(outcomes(data, "tests/test_hang.py::test_hangs")) == {"timeout"}


def test_forbidden_plugin_still_active_is_refused(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    # A retry plugin registered under a name `-p no:flaky` does not block.
    repo = feature_repo(
        make_repo,
        {
            "tests/test_one.py": "def test_one():\n    assert True\n",
            "flaky.py": '"""Stands in for the flaky plugin."""\n',
            "conftest.py": (
                "import flaky\n\n\ndef pytest_configure(config):\n"
                "    config.pluginmanager.register(flaky, 'helper-plugin')\n"
            ),
        },
    )
    assert flake(repo.path) == 2
    errors = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("lanegate:")]
    assert len(errors) == 1
    assert "forbidden pytest plugin still active: flaky" in errors[0]
    assert not (repo.path / ".lanegate" / "flake.json").exists()


def test_malformed_leases_file_is_one_line_exit_2(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    bad = json.dumps({"schema_version": 1, "leases": [{"test_id": "x"}]})
    repo = feature_repo(
        make_repo, {"tests/test_one.py": "def test_one():\n    pass\n"}, {"flake_leases.json": bad}
    )
    assert flake(repo.path) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "flake_leases.json" in err and "leases[0]" in err
    assert not (repo.path / ".lanegate" / "flake.json").exists()


@pytest.fixture(autouse=True)
def _no_ambient_tz(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("TZ", raising=False)
    assert "PYTEST_ADDOPTS" not in os.environ


def test_diff_without_tests_replays_nothing_and_passes(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, {"src/lib.py": "X = 2\n"}, {"src/lib.py": "X = 1\n"})
    assert flake(repo.path) == 0
    assert "no new or changed tests to replay" in capsys.readouterr().out
    data = ledger(repo.path)
    assert data["tests"] == [] and data["replays"] == [] and data["deterministic"] is True


def test_hypothesis_database_is_off_and_its_default_limits_stay(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    # No pytest.ini here: Hypothesis's own plugin loads as it would in a user's repository.
    # test_slow's examples sleep past the default 200 ms deadline: it fails every plain pytest
    # run, and every replay (the default limits stay, timed net of the waits for a CPU:
    # lanes/flake/untimed.py). A deadline the test sets itself stays too.
    repo = make_repo("repo")
    repo.write("README", "base\n")
    repo.commit("base")
    repo.branch("feature")
    repo.write(
        "tests/test_prop.py",
        "import datetime, time\n\n"
        "from hypothesis import Phase, given, settings, strategies as st\n\n\n"
        "@given(st.integers())\n"
        "def test_db_off(n):\n"
        "    assert settings().database is None\n"
        "    assert settings().deadline == datetime.timedelta(milliseconds=200)\n\n\n"
        "@settings(max_examples=2, phases=[Phase.generate])\n"
        "@given(st.integers())\n"
        "def test_slow(n):\n"
        "    time.sleep(0.3)\n\n\n"
        "@settings(deadline=datetime.timedelta(seconds=30))\n"
        "@given(st.integers())\n"
        "def test_own_deadline(n):\n"
        "    assert settings().deadline == datetime.timedelta(seconds=30)\n",
    )
    repo.commit("feature")
    assert flake(repo.path) == 1
    printed = capsys.readouterr().out
    data = ledger(repo.path)
    for name in ("test_db_off", "test_own_deadline"):
        assert set(outcomes(data, f"tests/test_prop.py::{name}")) == {"passed"}, name
    assert set(outcomes(data, "tests/test_prop.py::test_slow")) == {"failed"}
    assert "[flake-test-failed] tests/test_prop.py::test_slow" in printed, printed
    assert all("LANEGATE_FLAKE_HYPOTHESIS_DATABASE=off" in r["command"] for r in data["replays"])
    assert not (repo.path / ".hypothesis").exists()


DIMENSIONS = """\
import datetime
import random
import threading
import time

STATE = {}
TODAY = datetime.date.today()  # at import, before any clock run: the real date


def test_one_in_ten():
    assert random.random() >= 0.1


def test_some_zones_only():
    assert time.localtime().tm_gmtoff in (0, 14 * 3600, -12 * 3600)


def test_threads_share_a_counter():
    counter = [0]

    def pause():
        return None

    def bump():
        for _ in range(20000):
            value = counter[0]
            pause()  # a call: the only place 3.11 may switch threads between the read and the write
            counter[0] = value + 1

    threads = [threading.Thread(target=bump) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counter[0] == 40000  # a lost update needs a thread switch inside the loop


def test_set_a():
    STATE["a"] = 1


def test_needs_a_setter():
    assert STATE


def test_set_b():
    STATE["b"] = 1


def test_stable():
    assert sorted([3, 1, 2]) == [1, 2, 3]


def test_early_in_the_month():
    assert time.gmtime().tm_mday < 29  # UTC: no zone moves it, a shifted clock does


def test_within_two_weeks():
    assert datetime.date.today() < TODAY + datetime.timedelta(days=14)


def test_not_the_last_day_of_the_month():
    today = datetime.date.today()
    assert (today + datetime.timedelta(days=1)).month == today.month
"""


def _test(data: dict[str, Any], name: str) -> dict[str, Any]:
    (test,) = [t for t in data["tests"] if t["node_id"] == f"tests/test_dims.py::{name}"]
    return test


def test_batches_name_the_dimension_that_exposed_each_flake(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    # a budget these microsecond tests cannot spend: their repetitions stop at the cap (MAX_RUNS),
    # not at a count that follows the machine's load (95 runs once under a busy CI, not >= 100)
    policy = "[flake]\nrepeat_budget_seconds = 5.0\n"
    repo = feature_repo(make_repo, {"tests/test_dims.py": DIMENSIONS}, {"lanegate.toml": policy})
    assert flake(repo.path) == 1
    printed = capsys.readouterr().out
    data = ledger(repo.path)
    # Every base run of these three passes: only the batches show them.
    rare = _test(data, "test_one_in_ten")
    assert not rare["deterministic"] and rare["exposed_by"] == "repeat"
    assert rare["reproduce"].startswith("replay 2, repeat run ")
    assert rare["power"]["executions"] >= 100 and rare["power"]["min_detectable_rate"] < 0.03
    zone = _test(data, "test_some_zones_only")
    assert zone["exposed_by"] == "zone" and "TZ=LGZ" in zone["reproduce"]
    assert zone["power"]["zone"] >= 20
    race = _test(data, "test_threads_share_a_counter")
    assert not race["deterministic"]
    # the first batch to lose an update names the race: a stress run by design, but on a loaded
    # machine a shaken repeat (GIL switch interval 1 us) or a zone run can lose one first; a
    # thread test's isolation runs after the first are stalled or preempted, and they come first
    assert race["exposed_by"] in ("stress", "repeat", "zone", "isolation"), race["exposed_by"]
    if race["exposed_by"] in ("stress", "isolation"):
        assert f"{race['exposed_by']} run" in race["reproduce"]
        assert (
            "GIL stalls seeded" in race["reproduce"]
            or "GIL switch interval 1 us" in race["reproduce"]
        )
    assert any(b["dimension"] == "stress" for b in race["batches"])  # a thread test is stressed
    brittle = _test(data, "test_needs_a_setter")
    (alone,) = [b for b in brittle["batches"] if b["dimension"] == "isolation"]
    assert alone["failed"] == 1 and not brittle["deterministic"]
    assert brittle["exposed_by"] in ("isolation", "order")
    month = _test(data, "test_early_in_the_month")
    assert month["exposed_by"] == "clock" and "clock shifted +" in month["reproduce"]
    assert month["power"]["clock"] >= 20
    # the calendar: a date two weeks away and the month's last day, whatever today is
    for name in ("test_within_two_weeks", "test_not_the_last_day_of_the_month"):
        dated = _test(data, name)
        assert not dated["deterministic"] and dated["exposed_by"] == "clock", name
        assert "clock shifted +" in dated["reproduce"]
    stable = _test(data, "test_stable")
    assert stable["deterministic"] and stable["exposed_by"] is None
    assert {b["dimension"] for b in stable["batches"]} == {"repeat", "zone", "isolation"}
    assert all(b["passed"] == b["runs"] for b in stable["batches"])
    assert "exposed by repeat: replay 2, repeat run" in printed
    assert "every test would have shown a flake failing >= " in printed


def test_too_little_power_fails_under_a_strict_detect_rate(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    # 0.1% needs 2,995 executions: more than the floor's 400 batch runs reach
    policy = "[flake]\nrepeat_budget_seconds = 0.0\ndetect_rate = 0.001\n"
    repo = feature_repo(make_repo, {"tests/test_new.py": STABLE}, {"lanegate.toml": policy})
    assert flake(repo.path) == 1
    printed = capsys.readouterr().out
    assert "[flake-low-power] tests/test_new.py::test_sum:" in printed
    assert "flake.detect_rate asks for 0.1%" in printed


POLLUTED_PASS = """\
AUDIT = []


def test_victim_sees_an_empty_log():
    assert AUDIT == []


def test_polluter_logs_and_leaves_it():
    AUDIT.append("bob")
"""


def test_a_polluter_whose_state_outlasts_the_pass_is_named_order_not_hash_seed(
    make_repo, capsys
) -> None:  # type: ignore[no-untyped-def]
    # The polluter runs in every replay's pass; its state outlasts the pass, so every batch run of
    # the victim after the pass fails like the reversed replay's base run. Alone (the isolation
    # run, under replay 3's own hash seed) the victim passes: the hash seed does not decide it.
    repo = feature_repo(make_repo, {"tests/test_audit.py": POLLUTED_PASS})
    assert flake(repo.path) == 1
    data = ledger(repo.path)
    (victim,) = [t for t in data["tests"] if t["node_id"].endswith("test_victim_sees_an_empty_log")]
    assert [r["outcome"] for r in victim["replays"]][:2] == ["passed", "failed"]
    batches = {(b["replay"], b["dimension"]): b for b in victim["batches"]}
    assert batches[(3, "isolation")]["passed"] == 1
    assert batches[(2, "repeat")]["failed"] == batches[(2, "repeat")]["runs"] > 0
    assert not victim["deterministic"] and victim["exposed_by"] == "order"
    assert victim["reproduce"].startswith("replay 2 run 1 (")
    assert "order=reverse" in victim["reproduce"]
    capsys.readouterr()


HASH_SEEDED = {
    "tests/state.py": "READY = False\n",
    "tests/conftest.py": "import state\n\nstate.READY = True\n",
    "tests/test_words.py": """
import state


def first(text):
    return next(iter(set(text.split())))


def test_first_word():
    # two strings built at run time: which comes first follows the hash seed (about half of them)
    assert first("beta alpha") == "beta"


def test_sorted_words():
    assert sorted(set("beta alpha".split())) == ["alpha", "beta"]


def test_conftest_made_it_ready():
    # true in pytest (the conftest ran), false in a fresh interpreter: never a disagreement
    assert state.READY in {True}
""",
}


LAZY_INIT = """\
import threading

CREATED = []
_client = None


def _build():
    index = [hex(i) for i in range(2000)]  # 2,000 calls between the check and the act
    CREATED.append(index)
    return index


def get_client():
    global _client
    if _client is None:
        _client = _build()
    return _client


def test_client_created_once():
    barrier = threading.Barrier(4)

    def worker():
        barrier.wait()
        get_client()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(CREATED) == 1
"""


def test_a_lazy_init_race_that_only_a_first_run_can_lose_is_caught_alone_under_preemption(
    make_repo,
) -> None:  # type: ignore[no-untyped-def]
    # after its process's first run the client exists and no run can race again: only the base
    # runs and the isolation runs are first runs, and only the isolation runs after the first
    # are stalled or preempted
    repo = feature_repo(make_repo, {"tests/test_lazy.py": LAZY_INIT})
    assert flake(repo.path) == 1
    test = _test_named(ledger(repo.path), "tests/test_lazy.py::test_client_created_once")
    (alone,) = [b for b in test["batches"] if b["dimension"] == "isolation"]
    assert alone["runs"] == 4 and alone["passed"] + alone["failed"] == 4
    assert alone["failed"] >= 1
    assert not test["deterministic"]


def _test_named(data: dict[str, Any], node_id: str) -> dict[str, Any]:
    (test,) = [t for t in data["tests"] if t["node_id"] == node_id]
    return test


def test_hash_seed_runs_catch_a_run_time_set_order_and_reproduce(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, HASH_SEEDED)
    assert flake(repo.path) == 1
    data = ledger(repo.path)
    tests = {t["node_id"]: t for t in data["tests"]}
    flaky = tests["tests/test_words.py::test_first_word"]
    (fresh,) = [b for b in flaky["batches"] if b["dimension"] == "hash-seed"]
    assert fresh["replay"] == 3 and fresh["passed"] > 0 and fresh["failed"] > 0
    assert not flaky["deterministic"] and flaky["exposed_by"] == "hash-seed"
    assert "in a fresh interpreter" in flaky["reproduce"]
    assert flaky["power"]["hash_seed"] == 3 + fresh["runs"]
    for stable in ("test_sorted_words", "test_conftest_made_it_ready"):
        test = tests[f"tests/test_words.py::{stable}"]
        (batch,) = [b for b in test["batches"] if b["dimension"] == "hash-seed"]
        assert test["deterministic"], stable
        assert batch["runs"] == fresh["runs"]
    ready = tests["tests/test_words.py::test_conftest_made_it_ready"]
    (batch,) = [b for b in ready["batches"] if b["dimension"] == "hash-seed"]
    assert batch["failed"] == batch["runs"]  # the fresh interpreter never ran the conftest
    assert ready["power"]["hash_seed"] == 3  # so its runs count for nothing
    capsys.readouterr()
    assert flake(repo.path, "--replay", "3") == 0  # the recorded hash seeds give the same runs
    assert "reproduced the recorded outcomes" in capsys.readouterr().out


def _messages(repo: Path) -> list[str]:
    from lanegate.lanes.context import LaneContext, ProgressEvent
    from lanegate.lanes.flake import run_lane
    from lanegate.policy import Policy

    seen: list[ProgressEvent] = []
    ctx = LaneContext(
        repo=repo, base="main", policy=Policy(), out_dir=repo / ".lanegate", progress=seen.append
    )
    assert run_lane(ctx).would_pass
    return [event.message for event in seen]


def test_replay_1_collects_when_every_test_file_is_new(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, {"tests/test_new.py": STABLE})
    # replay 1 alone (it measures every test), then 2 and 3 side by side in their own sandboxes
    assert _messages(repo.path) == ["replay 1", "replays 2-3", "done"]
    assert [r["replay"] for r in ledger(repo.path)["replays"]] == [1, 2, 3]
    data = ledger(repo.path)
    first = data["replays"][0]
    assert first["replay"] == 1 and first["order"] == "forward"
    assert first["command"][-1] == "tests/test_new.py"  # the file itself, as pytest collected it
    assert [t["node_id"] for t in data["tests"]] == [
        "tests/test_new.py::test_sum",
        "tests/test_new.py::test_seeded",
    ]
    assert all(len(t["replays"]) == 3 for t in data["tests"])
    assert flake(repo.path, "--replay", "1") == 0
    # a changed file: which of its tests run depends on the collection, which runs first
    changed = feature_repo(
        lambda _: make_repo("changed"),
        {"tests/test_old.py": "def test_a():\n    assert True\n\n\ndef test_b():\n    assert 2\n"},
        {"tests/test_old.py": "def test_a():\n    assert True\n"},
    )
    assert _messages(changed.path)[0] == "collect"


UNREWRITTEN = """\
import sys

from _pytest.assertion.rewrite import AssertionRewritingHook
from hypothesis import given, strategies as st


def _rewritten(name):
    return isinstance(getattr(sys.modules[name], "__loader__", None), AssertionRewritingHook)


@given(st.integers())
def test_installed_plugins_are_imported_as_installed(n):
    assert not _rewritten("hypothesis")
    assert not _rewritten("hypothesis.core")
    assert _rewritten(__name__)  # the repository's own test module keeps its rewriting
"""


def test_replays_import_installed_plugins_unrewritten(make_repo) -> None:  # type: ignore[no-untyped-def]
    """pytest cannot cache rewritten modules in the sandbox: recompiling Hypothesis in every replay
    was a second of its start-up. The test fails in every replay when the plugin stops unmarking."""
    repo = feature_repo(make_repo, {"tests/test_loaders.py": UNREWRITTEN})
    assert flake(repo.path) == 0
    (test,) = ledger(repo.path)["tests"]
    assert {r["outcome"] for r in test["replays"]} == {"passed"}


UNITTEST_CASES = """\
import unittest


class Cart:
    items = []  # a class attribute: shared by every cart


class TestCart(unittest.TestCase):
    def test_a_new_cart_is_empty(self):
        self.assertEqual(Cart().items, [])

    def test_b_add_items(self):
        cart = Cart()
        cart.items.append("SKU-1")
        self.assertEqual(len(cart.items) >= 1, True)


class TestOthers(unittest.TestCase):
    def test_always_fails(self):
        self.assertEqual(1, 2)

    @unittest.skip("not on this platform")
    def test_skipped(self):
        raise AssertionError("never runs")

    def test_passes(self):
        self.assertEqual(2, 2)
"""


def test_unittest_failures_are_recorded_as_failures_not_passes(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    # pytest's unittest item records a TestCase's failures (as a TestResult would) and its runtest
    # returns normally: the plugin must read them, or every such test would pass every run.
    repo = feature_repo(make_repo, {"tests/test_cart.py": UNITTEST_CASES})
    assert flake(repo.path) == 1
    tests = {t["node_id"].split("::", 1)[1]: t for t in ledger(repo.path)["tests"]}
    fails = tests["TestOthers::test_always_fails"]
    assert [r["outcome"] for r in fails["replays"]] == ["failed"] * 3
    assert all(b["failed"] == b["runs"] for b in fails["batches"]), fails["batches"]
    assert [r["outcome"] for r in tests["TestOthers::test_skipped"]["replays"]] == ["skipped"] * 3
    passes = tests["TestOthers::test_passes"]
    assert passes["deterministic"] and {r["outcome"] for r in passes["replays"]} == {"passed"}
    victim = tests["TestCart::test_a_new_cart_is_empty"]
    assert [r["outcome"] for r in victim["replays"]][:2] == ["passed", "failed"]  # reversed
    assert not victim["deterministic"] and victim["exposed_by"] == "order"
    assert "test_always_fails: failed in every replay" in capsys.readouterr().out


HOST_SHAPED = """\
import os
import socket


def test_a_unix_socket_in_tmp_path_binds(tmp_path):
    # 107 bytes is all a Unix socket's path may hold: a deep TMPDIR under pytest's tmp_path
    # passes it (a macOS-length TMPDIR fails this test under plain pytest too)
    path = tmp_path / "service-agent-control.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(path))
        assert path.exists()


def _open_paths():
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            found.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            pass
    return found


def test_no_record_file_is_left_open():
    # a leak check by suffix among the process's open files sees none of the lane's own
    assert not [p for p in _open_paths() if p.endswith((".jsonl", ".json", ".log"))]
"""


def test_a_replay_looks_like_plain_pytest_to_tests_of_its_paths_and_open_files(make_repo) -> None:  # type: ignore[no-untyped-def]
    # both are stable under plain pytest; a replay with TMPDIR deep in the lane's work folder
    # failed the first in every run, and one holding its outcomes file open as `outcomes-*.jsonl`
    # failed the second (flake-corpus-7's look-alikes, measured blind)
    repo = feature_repo(make_repo, {"tests/test_host_shaped.py": HOST_SHAPED})
    assert flake(repo.path) == 0
    data = ledger(repo.path)
    assert len(data["tests"]) == 2
    for test in data["tests"]:
        assert test["deterministic"], test["node_id"]
        assert {r["outcome"] for r in test["replays"]} == {"passed"}, test["node_id"]


SKIPPED = """\
import os
import sys

import pytest


@pytest.mark.skipif(True, reason="needs the optional backend")
def test_backend():
    import not_installed_backend

    assert not_installed_backend.x == 1


@pytest.mark.skipif(sys.version_info < (3, 99), reason="a future Python only")
def test_future():
    assert os.environ.get("NOT_SET_ANYWHERE") == "set"


def test_one():
    assert 1 + 1 == 2
"""


def test_a_test_its_marks_skip_is_skipped_in_every_replay_condition(make_repo) -> None:  # type: ignore[no-untyped-def]
    # an untouched file's skipped tests (in-process batches: repeat, zone) and a new file's (its
    # isolation and shared-host runs in forked children): the marks skip every run of each
    untouched = SKIPPED + "\n\ndef test_two():\n    assert 2 + 2 == 4\n"
    repo = feature_repo(
        make_repo,
        {"tests/test_old.py": untouched, "tests/test_new.py": SKIPPED},
        {"tests/test_old.py": SKIPPED},
    )
    assert flake(repo.path) == 0
    data = ledger(repo.path)
    for path in ("tests/test_old.py", "tests/test_new.py"):
        for name in ("test_backend", "test_future"):
            (test,) = [t for t in data["tests"] if t["node_id"] == f"{path}::{name}"]
            assert test["deterministic"], (path, name)
            assert set(outcomes(data, test["node_id"])) == {"skipped"}
            assert test["batches"], (path, name)
            for batch in test["batches"]:
                assert set(batch["sequence"]) == {"s"}, (path, name, batch)
