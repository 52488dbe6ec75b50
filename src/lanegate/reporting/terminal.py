"""What `lanegate run` shows on a terminal: live progress per step, quiet lines elsewhere, a final table.

On a TTY a small block of lines (one per step: lane, state, elapsed, and the latest progress such as
"replay 2 of 6" or "mutant 3 of 12" with the test it runs) is redrawn in place a few times a second.
Without a TTY, or with --quiet, output is plain lines that logs keep well. Nothing here decides a
verdict: the final table only renders a `ScoreReport`.
"""

from __future__ import annotations

import shutil
import textwrap
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TextIO

from lanegate.lanes.context import ProgressEvent
from lanegate.ledgers.models import ReportReason, ScoreReport
from lanegate.reporting.text import split_warns

STEPS = ("property", "fixture", "flake", "lint", "score")
REFRESH_SECONDS = 0.1
_SPINNER = "|/-\\"
_ICONS = {"waiting": " ", "pass": "+", "fail": "x", "error": "!", "internal-error": "!"}


class Display(Protocol):
    """Receives the run's steps and progress events; renders them somewhere."""

    def step_started(self, step: str) -> None: ...
    def progress(self, event: ProgressEvent) -> None: ...
    def step_finished(self, step: str, state: str, summary: str) -> None: ...
    def close(self) -> None: ...


@dataclass(slots=True)
class _Row:
    step: str
    state: str = "waiting"
    detail: str = ""
    started: float | None = None
    finished: float | None = None
    summary: str = ""


def describe(event: ProgressEvent) -> str:
    """`mutant 3 of 12: tests/test_x.py::test_y`, or just the message when there is no count."""
    count = ""
    if event.total > 0:
        count = f"{event.unit or 'step'} {event.done} of {event.total}"
    elif event.unit and event.done > 0:
        count = f"{event.unit} {event.done}"
    message = " ".join(event.message.split())
    if count and message:
        return f"{count}: {message}"
    return count or message


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 3)] + "..."


class LiveDisplay:
    """Redraws one line per step in place (ANSI cursor movement), with a ticking elapsed time."""

    def __init__(
        self,
        stream: TextIO,
        steps: Sequence[str] = STEPS,
        *,
        clock: Callable[[], float] = time.monotonic,
        width: int | None = None,
        refresh: float = REFRESH_SECONDS,
    ) -> None:
        self._stream = stream
        self._clock = clock
        self._width = width
        self._rows = {step: _Row(step) for step in steps}
        self._order = list(steps)
        self._lock = threading.Lock()
        self._drawn = 0
        self._frame = 0
        self._started = clock()
        self._stop = threading.Event()
        self._closed = False
        self._stream.write("\x1b[?25l")  # hide the cursor while redrawing
        self._draw()
        self._ticker = threading.Thread(
            target=self._tick, args=(refresh,), name="lanegate-display", daemon=True
        )
        self._ticker.start()

    def _tick(self, refresh: float) -> None:
        while not self._stop.wait(refresh):
            self._draw()

    def _row(self, step: str) -> _Row:
        if step not in self._rows:
            self._rows[step] = _Row(step)
            self._order.append(step)
        return self._rows[step]

    def step_started(self, step: str) -> None:
        with self._lock:
            row = self._row(step)
            row.state, row.started, row.detail = "running", self._clock(), "starting"
        self._draw()

    def progress(self, event: ProgressEvent) -> None:
        with self._lock:
            row = self._row(event.lane)
            if row.state == "waiting":
                row.state, row.started = "running", self._clock()
            row.detail = describe(event)

    def step_finished(self, step: str, state: str, summary: str) -> None:
        with self._lock:
            row = self._row(step)
            row.state, row.finished, row.summary = state, self._clock(), summary
            if row.started is None:
                row.started = row.finished
        self._draw()

    def lines(self) -> list[str]:
        """The block as it would be drawn now (plain text, no escape codes)."""
        now = self._clock()
        width = (self._width or shutil.get_terminal_size((100, 24)).columns) - 1
        out = []
        for step in self._order:
            row = self._rows[step]
            if row.state == "running":
                icon = _SPINNER[self._frame % len(_SPINNER)]
                detail = row.detail
            else:
                icon = _ICONS.get(row.state, "?")
                detail = row.summary
            seconds = ""
            if row.started is not None:
                seconds = f"{(row.finished or now) - row.started:6.1f}s"
            row_text = f"{icon} {step:<9}{row.state:<12}{seconds:>8}  {detail}".rstrip()
            out.append(_clip(row_text, width))
        out.append(_clip(f"  elapsed {now - self._started:.1f}s", width))
        return out

    def _draw(self) -> None:
        with self._lock:
            self._frame += 1
            lines = self.lines()
            parts = [f"\x1b[{self._drawn}F"] if self._drawn else []
            parts.extend(f"\x1b[2K{line}\n" for line in lines)
            self._drawn = len(lines)
            try:
                self._stream.write("".join(parts))
                self._stream.flush()
            except (OSError, ValueError):  # the terminal went away: stop drawing, keep running
                self._stop.set()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        if self._ticker.is_alive() and self._ticker is not threading.current_thread():
            self._ticker.join()
        self._draw()
        try:
            self._stream.write("\x1b[?25h")
            self._stream.flush()
        except (OSError, ValueError):
            pass


@dataclass(slots=True)
class LineDisplay:
    """Plain lines: a line when a step starts and ends, and (unless quiet) when a lane's phase changes."""

    stream: TextIO
    quiet: bool = False
    clock: Callable[[], float] = time.monotonic
    _started: dict[str, float] = field(default_factory=dict)
    _units: dict[str, str] = field(default_factory=dict)

    def _say(self, text: str) -> None:
        try:
            self.stream.write(f"lanegate: {text}\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def step_started(self, step: str) -> None:
        self._started[step] = self.clock()
        self._say(f"{step}: running")

    def progress(self, event: ProgressEvent) -> None:
        if self.quiet or not event.unit or self._units.get(event.lane) == event.unit:
            return
        self._units[event.lane] = event.unit
        self._say(f"{event.lane}: {describe(event)}")

    def step_finished(self, step: str, state: str, summary: str) -> None:
        seconds = self.clock() - self._started.get(step, self.clock())
        tail = f": {' '.join(summary.split())}" if summary else ""
        self._say(f"{step}: {state} in {seconds:.1f}s{tail}")

    def close(self) -> None:
        return None


def make_display(stream: TextIO, *, quiet: bool, steps: Sequence[str] = STEPS) -> Display:
    """A live display on a TTY unless quiet; plain lines otherwise."""
    is_tty = False
    try:
        is_tty = stream.isatty()
    except (AttributeError, ValueError):
        is_tty = False
    if is_tty and not quiet:
        return LiveDisplay(stream, steps)
    return LineDisplay(stream, quiet=quiet)


# --- the final table ------------------------------------------------------------------------------


def _where(reason: ReportReason) -> str:
    if reason.path is None:
        return "-"
    return f"{reason.path}:{reason.line}" if reason.line is not None else reason.path


def _paint(text: str, verdict: str, color: bool) -> str:
    if not color:
        return text
    code = "32" if verdict == "pass" else "31"
    return f"\x1b[1;{code}m{text}\x1b[0m"


def render_table(
    report: ScoreReport, report_path: Path | str, *, color: bool = False, width: int | None = None
) -> str:
    """Lane, verdict and counts; under each lane its fails (rule id, file:line, message, fix),
    wrapped (never cut) at `width`, the terminal's width (COLUMNS) when None."""
    width = width or max(40, shutil.get_terminal_size((100, 24)).columns - 1)
    lines = [f"{'lane':<10}{'verdict':<9}{'fails':>6}{'warns':>7}"]
    listed: set[str] = set()
    by_lane: dict[str, list[ReportReason]] = {}
    for reason in (*report.fails, *report.warns):
        by_lane.setdefault(reason.lane, []).append(reason)
    lanes = list(report.lanes)
    for summary in lanes:
        listed.add(summary.lane)
        verdict = _paint(f"{summary.verdict.upper():<9}", summary.verdict, color)
        lines.append(f"{summary.lane:<10}{verdict}{summary.fails:>6}{summary.warns:>7}")
        lines.extend(_reason_lines(by_lane.get(summary.lane, []), width))
    for lane, reasons in by_lane.items():
        if lane not in listed:
            lines.append(f"{lane:<10}")
            lines.extend(_reason_lines(reasons, width))
    verdict = report.verdict
    warnings, notes = split_warns(report)
    lines.append("")
    lines.append(
        f"verdict: {_paint(verdict.upper(), verdict, color)}"
        f" ({len(report.fails)} fails, {len(warnings)} warnings"
        + (f", {len(notes)} follow-ups: Lane A notes, not fails)" if notes else ")")
    )
    lines.append(f"report:  {report_path}")
    return "\n".join(lines) + "\n"


def _reason_lines(reasons: list[ReportReason], width: int) -> list[str]:
    out = []
    for reason in reasons:
        mark = {"error": "", "note": "note "}.get(reason.severity, "warn ")
        message = " ".join(reason.message.split())
        out.extend(_wrap(f"  {mark}{reason.rule_id}  {_where(reason)}  {message}", width))
        if reason.fix:
            out.extend(_wrap(f"      fix: {' '.join(reason.fix.split())}", width))
    return out


def _wrap(text: str, width: int) -> list[str]:
    """One reason over as many lines as it needs; continuation lines indented under it."""
    return textwrap.wrap(
        text, width, subsequent_indent="        ", break_long_words=True, break_on_hyphens=False
    ) or [text]
