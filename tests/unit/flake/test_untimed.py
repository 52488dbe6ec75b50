"""Replays keep Hypothesis's default time limits, measured net of the time the test waited for a
CPU (`lanes/flake/untimed.py`): real pytest runs, with and without the lane's measure installed (by
a conftest, as the flake plugin installs it in a replay).

- A test whose examples sleep past the default deadline, or whose strategy sleeps past the default
  data-generation limit, fails every plain run, and fails with the measure too (the limits stay:
  a test that fails its CI on every run must not pass the lane).
- A test that computes 5 ms of CPU an example passes a plain run on an idle machine; pinned to one
  CPU at the lowest priority beside a busy process (a share of about 1.5%), it waits for that CPU
  most of the time and fails the default 200 ms deadline by the machine's load. With the measure it passes; a deadline the test set
  itself still fails under the same load (its own limit is timed on the clock as it is)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SLOW = """\
import time

from hypothesis import Phase, given, settings
from hypothesis import strategies as st


def slowly(x):
    time.sleep(0.35)
    return x


@settings(max_examples=2, phases=[Phase.generate])
@given(st.integers())
def test_sleeps_past_the_default_deadline(x):
    time.sleep(0.4)


@settings(max_examples=11, phases=[Phase.generate])
@given(st.integers().map(slowly))
def test_slow_to_generate(x):
    assert isinstance(x, int)
"""

BUSY = """\
import time

from hypothesis import Phase, given, settings
from hypothesis import strategies as st


def compute(seconds):
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        pass


# no shrinking: a failure is reported after one more run of its example, not dozens
@settings(max_examples=2, phases=[Phase.generate])
@given(st.integers())
def test_computes_5_ms(x):
    compute(0.005)


@settings(max_examples=2, phases=[Phase.generate], deadline=100)
@given(st.integers())
def test_computes_5_ms_within_its_own_100_ms(x):
    compute(0.005)
"""

CONFTEST = """\
import os

import pytest

import hypothesis  # noqa: F401 (loaded before the measure is installed, as in a replay)
from lanegate.lanes.flake import untimed

# Hypothesis's own default limits, wherever this runs: where CI is set (lanegate's own CI) Hypothesis
# loads its "ci" profile, which has no deadline and suppresses too_slow
hypothesis.settings.load_profile("default")

MEASURED = os.environ.get("UNTIMED_MEASURE") == "1"
assert not MEASURED or untimed.install()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    cpu = os.environ.get("UNTIMED_CPU")
    if cpu:  # the call alone, at the lowest priority, on the CPU a busy process holds
        os.sched_setaffinity(0, {int(cpu)})
        os.setpriority(os.PRIO_PROCESS, 0, 19)
    try:
        if not MEASURED:
            return (yield)
        with untimed.timed(own_limit=untimed.own_deadline(item.obj), lane_delays=False):
            return (yield)
    finally:
        if cpu:
            os.setpriority(os.PRIO_PROCESS, 0, 0)
            os.sched_setaffinity(0, range(os.cpu_count() or 1))
"""

HOGS = 1


def _pytest(where: Path, name: str, *, measure: bool, cpu: int | None = None) -> str:
    env = {**os.environ, "UNTIMED_MEASURE": "1" if measure else "0"}
    env["UNTIMED_CPU"] = "" if cpu is None else str(cpu)
    (where / "conftest.py").write_text(CONFTEST)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-rA",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "-n",
            "0",
            "--tb=line",
            name,
        ],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    return done.stdout


@contextmanager
def _busy(cpu: int) -> Iterator[None]:
    """`HOGS` processes spinning on CPU `cpu`: a loaded machine, for whatever runs there at a
    lower priority."""
    hogs = [
        subprocess.Popen(
            [sys.executable, "-c", "while True: pass"],
            preexec_fn=lambda: os.sched_setaffinity(0, {cpu}),
        )
        for _ in range(HOGS)
    ]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def _outcomes(output: str) -> dict[str, str]:
    got = {}
    for line in output.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("PASSED", "FAILED") and "::" in rest:
            got[rest.split("::", 1)[1].split(" ", 1)[0]] = word
    return got


def test_a_test_slower_than_the_default_limits_still_fails(tmp_path: Path) -> None:
    (tmp_path / "test_slow.py").write_text(SLOW)
    plain = _outcomes(_pytest(tmp_path, "test_slow.py", measure=False))
    assert set(plain.values()) == {"FAILED"} and len(plain) == 2, plain
    measured = _pytest(tmp_path, "test_slow.py", measure=True)
    assert _outcomes(measured) == plain, measured
    assert "DeadlineExceeded" in measured and "too_slow" in measured, measured


def test_load_fails_no_default_deadline_and_the_tests_own_still_counts(tmp_path: Path) -> None:
    (tmp_path / "test_busy.py").write_text(BUSY)
    cpu = min(os.sched_getaffinity(0))
    with _busy(cpu):
        plain = _outcomes(_pytest(tmp_path, "test_busy.py", measure=False, cpu=cpu))
        measured = _outcomes(_pytest(tmp_path, "test_busy.py", measure=True, cpu=cpu))
    # the load is real: the plain run fails both by the clock
    assert plain == {
        "test_computes_5_ms": "FAILED",
        "test_computes_5_ms_within_its_own_100_ms": "FAILED",
    }, plain
    assert measured == {
        "test_computes_5_ms": "PASSED",
        "test_computes_5_ms_within_its_own_100_ms": "FAILED",
    }, measured
