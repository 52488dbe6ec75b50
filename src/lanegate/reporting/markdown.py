"""The job summary in Markdown: verdict banner, lanes, every fail with its fix, replay matrices of
nondeterministic tests and surviving mutants as small diffs, cut with a visible note under the cap.
"""

from __future__ import annotations

import re

from lanegate.lanes.property.changes import line as changes_line
from lanegate.ledgers.models import (
    AuthorKind,
    FlakeLedger,
    FlakeTest,
    Mutant,
    PropertyLedger,
    ReportReason,
    ScoreReport,
)
from lanegate.model import Lane
from lanegate.reporting.text import split_warns
from lanegate.scoring.evidence import LoadedLedger, ScoreInputs
from lanegate.scoring.property_rules import counts_as_detected, operator_mutants

MARKER = "<!-- lanegate score summary -->"
# GitHub refuses a step summary over 1024 KiB; keep a margin for what other steps append.
MAX_SUMMARY_BYTES = 1000 * 1024
_NOTE_RESERVE = 512
_BACKTICKS = re.compile(r"`+")


def cell(text: str) -> str:
    """Text safe inside a table cell: one line, pipes escaped, no raw HTML."""
    flat = " ".join(text.split())
    return flat.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def code(text: str) -> str:
    """Inline code that survives backticks inside the text."""
    flat = " ".join(text.split())
    longest = max((len(m) for m in _BACKTICKS.findall(flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def _fence(lines: list[str]) -> str:
    longest = max((len(m) for line in lines for m in _BACKTICKS.findall(line)), default=0)
    return "`" * max(3, longest + 1)


class _Writer:
    """Appends blocks while they fit; the first block that does not fit is replaced by a note."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.parts: list[str] = []
        self.size = 0
        self.cut: list[str] = []

    def fits(self, text: str) -> bool:
        return self.size + len(text.encode("utf-8")) + _NOTE_RESERVE <= self.limit

    def add(self, text: str) -> bool:
        if not self.fits(text):
            return False
        self.parts.append(text)
        self.size += len(text.encode("utf-8"))
        return True

    def section(self, title: str, blocks: list[str]) -> None:
        """A heading and its blocks; blocks past the cap are counted in a visible note."""
        if not blocks:
            return
        if not self.add(f"\n### {title}\n\n"):
            self.cut.append(f"{title} ({len(blocks)} items)")
            return
        for shown, block in enumerate(blocks):
            if not self.add(block):
                left = len(blocks) - shown
                note = f"\n> {left} more item{'s' * (left != 1)} of {title.lower()} cut to stay under the step-summary cap; see score-report.json.\n"
                self.parts.append(note)
                self.size += len(note.encode("utf-8"))
                self.cut.append(f"{title} ({left} items)")
                return

    def text(self) -> str:
        out = "".join(self.parts)
        if self.cut:
            out += (
                "\n> Summary cut to stay under GitHub's 1024 KiB step-summary cap: "
                + "; ".join(self.cut)
                + ".\n"
            )
        return out


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _reason_block(reason: ReportReason) -> str:
    where = ""
    if reason.path is not None:
        where = " " + code(reason.path + (f":{reason.line}" if reason.line is not None else ""))
    fix = f"\n  fix: {cell(reason.fix)}" if reason.fix else ""
    return f"- **{reason.rule_id}** ({reason.lane}){where}: {cell(reason.message)}{fix}\n"


def _lane_table(report: ScoreReport) -> str:
    rows = ["| lane | verdict | fails | warnings | counts |", "| --- | --- | --- | --- | --- |"]
    for lane in report.lanes:
        counts = ", ".join(f"{k} {v}" for k, v in sorted(lane.counts.items())) or "-"
        mark = "pass" if lane.verdict == "pass" else "**fail**"
        rows.append(f"| {lane.lane} | {mark} | {lane.fails} | {lane.warns} | {cell(counts)} |")
    return "\n".join(rows) + "\n"


def _loaded(inputs: ScoreInputs | None, lane: Lane) -> object | None:
    if inputs is None:
        return None
    slot = inputs.slot(lane)
    return slot.value if isinstance(slot, LoadedLedger) else None


def replay_matrix(test: FlakeTest) -> str:
    """One nondeterministic test: replay x outcome with the pins that reproduce each replay."""
    lines = [
        f"**{cell(test.node_id)}**\n",
        "| replay | repeat | outcome | hash seed | order | order seed | tz | seconds |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in test.replays:
        outcome = r.outcome.value if r.outcome.value == "passed" else f"**{r.outcome.value}**"
        lines.append(
            f"| {r.replay} | {r.repeat} | {outcome} | {r.hash_seed} | {cell(r.order)} | "
            f"{'-' if r.order_seed is None else r.order_seed} | {cell(r.tz)} | {r.seconds:.2f} |"
        )
    return "\n".join(lines) + "\n\n"


def mutant_diff(m: Mutant) -> str:
    """A surviving mutant as a small diff: where, what it was, what it became."""
    body = [
        f"# {m.path}:{m.line} {m.operator} ({m.status.value}) {m.id}",
        f"- {m.original}",
        f"+ {m.replacement}",
    ]
    body = [" ".join(line.splitlines()) or line for line in body]
    fence = _fence(body)
    return f"{fence}diff\n" + "\n".join(body) + f"\n{fence}\n"


def baseline_line(ledger: PropertyLedger) -> str:
    """Which tests the property lane's baseline ran: every one, or a coverage map's selection."""
    b = ledger.baseline
    if b.mode == "coverage-map":
        return (
            f"Property baseline: coverage map {code(b.map_key[:19])}: {cell(b.reason)} "
            f"({b.selected_tests} tests run)."
        )
    return f"Property baseline: full traced run ({cell(b.reason or 'no coverage map')})."


class MarkdownReporter:
    """The job summary (`score-summary.md`, also appended to GITHUB_STEP_SUMMARY by the action)."""

    name = "markdown"
    file_name = "score-summary.md"

    def __init__(self, limit: int = MAX_SUMMARY_BYTES) -> None:
        self.limit = limit

    def render(self, report: ScoreReport, inputs: ScoreInputs | None = None) -> str:
        """The summary, never over `limit` bytes."""
        w = _Writer(self.limit)
        passed = report.verdict == "pass"
        banner = "PASS" if passed else "FAIL"
        icon = ":white_check_mark:" if passed else ":x:"
        w.add(f"{MARKER}\n## {icon} lanegate: {banner}\n\n")
        warnings, follow_ups = split_warns(report)
        column = "Lane A" if report.authorship is AuthorKind.HUMAN else "Lane B"
        w.add(
            f"{_count(len(report.fails), 'fail')}, {_count(len(warnings), 'warning')}"
            + (f", {_count(len(follow_ups), 'follow-up')}" if follow_ups else "")
            + f". Lane {code(report.lane_name)}, "
            f"authorship {report.authorship.value} (scored by the {column} column), "
            f"run attempt {report.run_attempt}, "
            f"lanegate {cell(report.lanegate_version)}, scored at {report.utc.isoformat()}.\n"
        )
        if report.head_commit:
            w.add(
                f"Head {code(report.head_commit[:12])}, base {code((report.base_commit or '?')[:12])}.\n"
            )
        if not passed and not report.fails:
            w.add("\nNo evidence passed: the gate fails closed.\n")
        w.add("\n" + _lane_table(report))
        w.section("Fails", [_reason_block(r) for r in report.fails])
        w.section("Warnings", [_reason_block(r) for r in warnings])
        w.section(
            "Follow-ups (Lane A notes: not a fail for a diff a human owns)",
            [_reason_block(r) for r in follow_ups],
        )
        flake = _loaded(inputs, Lane.FLAKE)
        if isinstance(flake, FlakeLedger):
            shaky = [
                t
                for t in flake.tests
                if not t.deterministic or len({r.outcome for r in t.replays}) > 1
            ]
            w.section("Replay matrix of nondeterministic tests", [replay_matrix(t) for t in shaky])
        prop = _loaded(inputs, Lane.PROPERTY)
        if isinstance(prop, PropertyLedger):
            w.add(f"\n{baseline_line(prop)}\n")
            alive = [m for m in operator_mutants(prop.mutants) if not counts_as_detected(m)]
            w.section("Mutants not detected by a property", [mutant_diff(m) for m in alive])
            w.section(
                "Changed functions: the base's version against the tests, and the behaviour diff",
                [f"- {changes_line(c)}\n" for c in prop.changed_functions],
            )
        if report.ledgers:
            digests = [f"- {code(d.name)} {code(d.digest)}\n" for d in report.ledgers]
            w.section("Evidence read", digests)
        return w.text()
