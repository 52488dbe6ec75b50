"""`lanegate flake` on another host (the working directory, the terminal size, the CPU count, the
order directories list in) and on a daylight-saving day.

Each flaky test passes on the host the replays run on and fails on another one a CI job may be
(pytest started from another directory, a terminal that is not 80 columns, one CPU or four, a
machine in a zone with daylight saving time on the day the clocks change); each stable look-alike
reads the same condition honestly and must pass every run.
"""

from __future__ import annotations

import os
from typing import Any

from tests.integration.test_cli_flake import flake, ledger
from tests.unit.flake.repos import feature_repo

HOST = """\
import os
import shutil
import textwrap
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

TEXT = "a gate decides whether a pull request written by a coding agent may merge " * 3


def test_reads_a_path_relative_to_the_cwd():
    assert Path("tests/data.txt").read_text() == "rates\\n"


def test_reads_a_path_relative_to_its_file():
    assert (Path(__file__).parent / "data.txt").read_text() == "rates\\n"


def test_writes_to_the_cwd():
    # a name of its own: a fixed one collides with a copy of the test in the same tree (shared-host)
    out = Path(f"out-{os.getpid()}.txt")
    out.write_text("done")
    assert out.read_text() == "done"
    os.remove(out)


def test_works_in_its_own_tmp_dir(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    Path("note.txt").write_text("kept")
    assert (tmp_path / "note.txt").read_text() == "kept"


def test_assumes_an_80_column_terminal():
    width = shutil.get_terminal_size().columns
    assert textwrap.fill(TEXT, width) == textwrap.fill(TEXT, 80)


def test_wraps_to_the_terminal_width():
    width = shutil.get_terminal_size().columns
    assert all(len(line) <= width for line in textwrap.fill(TEXT, width).splitlines())


def test_pins_its_own_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert textwrap.fill(TEXT, shutil.get_terminal_size().columns) == textwrap.fill(TEXT, 80)


def test_keeps_one_cpu_for_the_main_thread():
    with ThreadPoolExecutor(max_workers=os.cpu_count() - 1) as pool:
        assert sorted(pool.map(abs, [-2, 1])) == [1, 2]


def colour(text):
    if os.environ.get("NO_COLOR"):  # no-color.org: CI images and developers export it
        return text
    return f"\\x1b[1m{text}\\x1b[0m"


def test_expects_colour():
    assert colour("ok") == "\\x1b[1mok\\x1b[0m"


def test_pins_its_colour(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert colour("ok") == "\\x1b[1mok\\x1b[0m"


def test_sizes_its_pool_by_the_cpu_count():
    with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        assert sorted(pool.map(abs, [-2, 1])) == [1, 2]
    assert threading.active_count() == 1  # the lane's instruments start no thread
"""


def _tests(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["node_id"].split("::")[1]: t for t in data["tests"]}


def test_host_runs_expose_cwd_terminal_and_cpu_flakes_and_pass_their_look_alikes(
    make_repo, capsys
) -> None:  # type: ignore[no-untyped-def]
    assert (os.cpu_count() or 1) >= 2, "this test needs a host with two CPUs or more"
    repo = feature_repo(make_repo, {"tests/test_host.py": HOST, "tests/data.txt": "rates\n"})
    assert flake(repo.path) == 1
    printed = capsys.readouterr().out
    data = ledger(repo.path)
    tests = _tests(data)
    flaky = {
        "test_reads_a_path_relative_to_the_cwd": ("cwd", "working directory: an empty"),
        "test_assumes_an_80_column_terminal": ("terminal", "COLUMNS="),
        "test_keeps_one_cpu_for_the_main_thread": ("cpus", "os.cpu_count() = 1"),
        "test_expects_colour": ("env", "NO_COLOR=1"),
    }
    for name, (dimension, pin) in flaky.items():
        test = tests[name]
        assert not test["deterministic"] and test["exposed_by"] == dimension, name
        assert test["reproduce"].startswith(f"replay 2, {dimension} run "), test["reproduce"]
        assert pin in test["reproduce"], test["reproduce"]
        assert all(r["outcome"] == "passed" for r in test["replays"]), name
        assert test["power"][dimension] >= 1
    for name in (
        "test_reads_a_path_relative_to_its_file",
        "test_writes_to_the_cwd",
        "test_works_in_its_own_tmp_dir",
        "test_wraps_to_the_terminal_width",
        "test_pins_its_own_terminal",
        "test_pins_its_colour",
        "test_sizes_its_pool_by_the_cpu_count",
    ):
        test = tests[name]
        assert test["deterministic"], (name, test["batches"])
        host = [b for b in test["batches"] if b["dimension"] in ("cwd", "terminal", "cpus", "env")]
        assert host and all(b["passed"] == b["runs"] for b in host), name
    assert {b["dimension"] for b in tests["test_writes_to_the_cwd"]["batches"]} >= {"cwd"}
    assert tests["test_sizes_its_pool_by_the_cpu_count"]["power"]["cpus"] == 2
    assert tests["test_wraps_to_the_terminal_width"]["power"]["terminal"] == 2
    assert tests["test_pins_its_colour"]["power"]["env"] == 2
    assert "exposed by cwd: replay 2, cwd run 0" in printed
    capsys.readouterr()
    assert flake(repo.path, "--replay", "2") == 0  # the recorded host runs give the same outcomes
    assert "reproduced the recorded outcomes" in capsys.readouterr().out


LISTING = """\
import glob
import os


def enqueue(spool, name, payload):
    (spool / name).write_text(payload)


def drain(spool):
    return [(spool / name).read_text() for name in os.listdir(spool)]


def test_drains_in_the_order_written(tmp_path):
    enqueue(tmp_path, "job-k3v", "first")
    enqueue(tmp_path, "job-a9x", "second")
    assert drain(tmp_path) == ["first", "second"]


def test_drains_in_name_order(tmp_path):
    enqueue(tmp_path, "job-001", "first")
    enqueue(tmp_path, "job-002", "second")
    assert sorted(os.listdir(tmp_path)) == ["job-001", "job-002"]
    assert [os.path.basename(p) for p in sorted(glob.glob(str(tmp_path / "*")))] == [
        "job-001",
        "job-002",
    ]


def test_counts_what_it_lists(tmp_path):
    enqueue(tmp_path, "one", "1")
    enqueue(tmp_path, "two", "2")
    assert sorted(p.read_text() for p in tmp_path.iterdir()) == ["1", "2"]
"""


def test_listing_runs_expose_a_test_counting_on_the_file_systems_order(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    # the sandbox's tmpfs lists in one fixed order, a runner's ext4 in its names' hash order
    repo = feature_repo(make_repo, {"tests/test_spool.py": LISTING})
    assert flake(repo.path) == 1
    printed = capsys.readouterr().out
    tests = _tests(ledger(repo.path))
    flaky = tests["test_drains_in_the_order_written"]
    assert not flaky["deterministic"] and flaky["exposed_by"] == "listing", flaky["batches"]
    assert flaky["reproduce"].startswith("replay 2, listing run "), flaky["reproduce"]
    assert "directory listings" in flaky["reproduce"]
    for name in ("test_drains_in_name_order", "test_counts_what_it_lists"):
        test = tests[name]
        assert test["deterministic"], (name, test["batches"])
        assert test["power"]["listing"] == 2, name
        listing = [b for b in test["batches"] if b["dimension"] == "listing"]
        assert listing and all(b["passed"] == b["runs"] for b in listing), name
    assert "exposed by listing" in printed
    capsys.readouterr()
    assert flake(repo.path, "--replay", "2") == 0  # the recorded listings give the same outcomes
    assert "reproduced the recorded outcomes" in capsys.readouterr().out


DST = """\
import calendar
import datetime
import time

STARTED = time.time()


def test_a_local_day_has_24_hours():
    t = time.localtime()
    midnight = time.mktime((t.tm_year, t.tm_mon, t.tm_mday, 0, 0, 0, 0, 0, -1))
    tomorrow = time.mktime((t.tm_year, t.tm_mon, t.tm_mday + 1, 0, 0, 0, 0, 0, -1))
    assert tomorrow - midnight == 86400


def test_a_utc_day_has_24_hours():
    t = time.gmtime()
    midnight = calendar.timegm((t.tm_year, t.tm_mon, t.tm_mday, 0, 0, 0))
    assert calendar.timegm((t.tm_year, t.tm_mon, t.tm_mday + 1, 0, 0, 0)) - midnight == 86400


def test_the_clock_never_runs_backwards():
    assert time.time() >= STARTED
    assert datetime.datetime.now().astimezone() >= datetime.datetime.fromtimestamp(STARTED).astimezone()
"""


def test_dst_runs_expose_a_23_hour_day_and_never_move_the_clock_back(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, {"tests/test_dst.py": DST})
    assert flake(repo.path) == 1
    tests = _tests(ledger(repo.path))
    local = tests["test_a_local_day_has_24_hours"]
    assert not local["deterministic"] and local["exposed_by"] == "dst"
    assert "clock moved to 00:30 local time on the day of the next DST start" in local["reproduce"]
    assert "TZ=LGS+5LGD,M3.2.0,M11.1.0" in local["reproduce"]
    (dst,) = [b for b in local["batches"] if b["dimension"] == "dst"]
    assert dst["failed"] == dst["runs"] == 2 and local["power"]["dst"] == 2
    for name in ("test_a_utc_day_has_24_hours", "test_the_clock_never_runs_backwards"):
        test = tests[name]
        assert test["deterministic"], (name, test["batches"])
        (dst,) = [b for b in test["batches"] if b["dimension"] == "dst"]
        assert dst["passed"] == dst["runs"] == 2, name
