"""The progress display under a real pseudo-terminal, as plain lines through a pipe, and the table."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.lanes.context import ProgressEvent
from lanegate.reporting.terminal import LiveDisplay, describe, render_table
from tests.integration.ptyrun import run_in_pty
from tests.integration.scripted_display import REPORT

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = [sys.executable, "-m", "tests.integration.scripted_display"]
ESC = "\x1b"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"NO_COLOR", "PYTEST_ADDOPTS"}}
    env["COLUMNS"] = "100"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_live_display_redraws_in_place_on_a_terminal() -> None:
    code, text = run_in_pty(SCRIPT, ROOT, _env())
    assert code == 0, text
    assert text.startswith(f"{ESC}[?25l")  # cursor hidden while drawing
    assert f"{ESC}[?25h" in text  # and shown again at the end
    # one block of 6 lines (5 steps + elapsed), redrawn by moving the cursor up 6 lines
    assert f"{ESC}[6F" in text
    assert f"{ESC}[2K" in text
    frames = text.split(f"{ESC}[6F")
    assert len(frames) >= 5
    assert "mutant 3 of 12: tests/test_codec.py::test_round_trip" in text
    assert "replay 2 of 6: hash seed 17, order reverse, TZ XYZ-5" in text
    assert "case 1 of 1: words" in text
    assert re.search(r"property +running +\d+\.\ds  mutant 3 of 12", text)
    last = frames[-1]
    assert re.search(r"x property +fail +\d+\.\ds  2 of 4 mutants survived", last)
    assert re.search(r"\+ fixture +pass ", last)
    assert re.search(r"elapsed \d+\.\ds", last)
    assert "verdict: FAIL (2 fails, 0 warnings)" in text
    assert "report:  .lanegate/score-report.json" in text


def test_without_a_terminal_output_is_plain_lines() -> None:
    done = subprocess.run(
        SCRIPT, cwd=ROOT, env=_env(), capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert ESC not in done.stderr
    lines = done.stderr.splitlines()
    assert lines[0] == "lanegate: property: running"
    assert "lanegate: property: mutant 3 of 12: tests/test_codec.py::test_round_trip" in lines
    assert "lanegate: flake: replay 2 of 6: hash seed 17, order reverse, TZ XYZ-5" in lines
    assert any(
        re.fullmatch(r"lanegate: property: fail in \d+\.\ds: 2 of 4 mutants survived", x)
        for x in lines
    )
    assert ESC not in done.stdout


def test_quiet_drops_progress_lines_but_keeps_steps() -> None:
    done = subprocess.run(
        [*SCRIPT, "--quiet"],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "mutant 3 of 12" not in done.stderr
    assert len(done.stderr.splitlines()) == 10  # 5 steps, started and finished


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class _Sink:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return len(text)

    def flush(self) -> None:
        return None


def test_live_rows_show_state_elapsed_and_latest_progress() -> None:
    clock = _Clock()
    display = LiveDisplay(_Sink(), ("property", "flake"), clock=clock, width=80, refresh=3600)  # type: ignore[arg-type]
    display.step_started("property")
    clock.now += 2.5
    display.progress(ProgressEvent("property", "tests/test_a.py::test_" + "x" * 80, "mutant", 2, 5))
    lines = display.lines()
    assert lines[0][0] in "|/-\\"  # the spinner of a running step
    assert lines[0][1:].startswith(" property running         2.5s  mutant 2 of 5: tests/test_a.py")
    assert all(len(line) <= 79 for line in lines)
    assert lines[0].endswith("...")
    assert lines[1] == "  flake    waiting"
    display.step_finished("property", "pass", "4 of 5 killed")
    clock.now += 10
    assert display.lines()[0] == "+ property pass            2.5s  4 of 5 killed"
    assert display.lines()[-1] == "  elapsed 12.5s"
    display.close()


def test_table_lists_each_fail_with_rule_file_line_and_fix() -> None:
    text = render_table(REPORT, ".lanegate/score-report.json", width=100)
    assert text.splitlines() == [
        "lane      verdict   fails  warns",
        "property  FAIL          1      0",
        "  property-mutant-budget  src/lib.py:12  2 of 4 mutants survived",
        "      fix: add properties that kill the surviving mutants",
        "fixture   PASS          0      0",
        "flake     FAIL          1      0",
        "  flake-nondeterministic  tests/test_x.py  tests/test_x.py::test_y failed in replay 2 of 6",
        "      fix: remove the source of non-determinism",
        "lint      PASS          0      0",
        "",
        "verdict: FAIL (2 fails, 0 warnings)",
        "report:  .lanegate/score-report.json",
    ]


@settings(derandomize=True, max_examples=200)
@given(
    lane=st.sampled_from(["property", "fixture", "flake"]),
    message=st.text(max_size=40),
    unit=st.sampled_from(["", "replay", "mutant", "case"]),
    done=st.integers(0, 50),
    total=st.integers(0, 50),
)
def test_describe_is_one_line_and_keeps_the_count(
    lane: str, message: str, unit: str, done: int, total: int
) -> None:
    text = describe(ProgressEvent(lane, message, unit, done, total))
    assert "\n" not in text and "\r" not in text
    if total > 0:
        assert text.startswith(f"{unit or 'step'} {done} of {total}")
