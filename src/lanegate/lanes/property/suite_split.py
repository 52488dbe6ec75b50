"""Which process traces which test, so that the suite runs once: the base's test files the diff did
not touch run traced in the base suite's trusted process (`base_suite`), everything else pytest
collects at head in the head's traced process (`baseline`); and the join of the two records into
the one baseline the lane reads (covering tests per function, durations, counted cases, settings).

Trust: for a base test file the diff did not touch only the base suite's record is read. The head's
process never runs such a file, so an entry it writes for one of its tests (a new test module can
reach the recorder of its own process) is forged: it is dropped and counted. When the diff changed
or deleted a module beside the base's tests (`tests/strategies.py`), the base suite runs that
module's base version while the mutants run the head's; then no file is shared and the head's
process runs every test, as it did before the split.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lanegate.lanes.property.base_suite import BaseSuite
from lanegate.lanes.property.baseline import Baseline
from lanegate.lanes.property.map_select import BaselineChoice
from lanegate.lanes.pytest_args import path_argument


@dataclass(frozen=True, slots=True)
class SuiteSplit:
    """The base test files whose tests only the base suite runs and traces, or why there are none."""

    shared: frozenset[str]
    reason: str = ""


@dataclass(frozen=True, slots=True)
class HeadPass:
    """The head's traced process: the files it is given (none: pytest's own discovery), the tests it
    keeps (`--lanegate-select`), and the shared files it must not collect (`--lanegate-ignore`)."""

    selection: tuple[str, ...]
    keep: Mapping[str, Sequence[str]] | None
    ignored: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class JoinedBaseline:
    """The lane's baseline from the two processes, and what each contributed."""

    baseline: Baseline
    at_head: int
    in_base_suite: int
    dropped: tuple[str, ...]


def split_suite(suite: BaseSuite) -> SuiteSplit:
    """The base test files the diff left alone, whose base-suite run serves as the baseline's."""
    if suite.helpers:
        return SuiteSplit(
            frozenset(),
            f"the diff changed {suite.helpers[0]} beside the base's tests: the base suite runs its "
            "base version, the mutants the head's, so every test is traced at head too",
        )
    restored = set(suite.restored)
    return SuiteSplit(frozenset(f for f in suite.files if f not in restored))


def _file(node_id: str) -> str:
    return node_id.split("::", 1)[0]


def head_pass(
    split: SuiteSplit, choice: BaselineChoice, present: Sequence[str] = ()
) -> HeadPass | None:
    """The head's process: in full mode pytest's discovery without the shared files; in coverage-map
    mode the selected files (`present`: those of the head's tree) that are not shared, keeping the
    selected tests and the diff's test files whole. None: nothing is left for it to run."""
    if not choice.selective:
        return HeadPass((), None, tuple(sorted(split.shared)))
    files = [f for f in present if f not in split.shared]
    if not files:
        return None
    keep = {
        "node_ids": sorted(n for n in choice.node_ids if _file(n) not in split.shared),
        "files": sorted({*choice.head_files, *choice.base_files} - split.shared),
    }
    return HeadPass(tuple(path_argument(f) for f in files), keep, ())


def join(head: Baseline | None, base: Baseline | None, split: SuiteSplit) -> JoinedBaseline:
    """One baseline from the head's record (tests of files not shared) and the base suite's (tests
    of the shared files; the restored files' base versions are not the head's tests and are left
    out). Settings and versions come from the head's record where it ran; the peak memory is the
    larger; the per-process overhead (start-up, collection) the larger, so a mutant's timeout is
    at least what either process needed."""
    tests: dict[str, dict[str, Any]] = {}
    collected: list[str] = []
    errors: list[str] = []
    dropped: list[str] = []
    if head is not None:
        for node_id, entry in head.tests.items():
            if _file(node_id) in split.shared:
                dropped.append(node_id)
            else:
                tests[node_id] = entry
        collected += [n for n in head.collection.node_ids if _file(n) not in split.shared]
        errors += [e for e in head.collection.errors if _file(e) not in split.shared]
    at_head = len(tests)
    if base is not None:
        tests.update((n, e) for n, e in base.tests.items() if _file(n) in split.shared)
        collected += [n for n in base.collection.node_ids if _file(n) in split.shared]
        errors += [e for e in base.collection.errors if _file(e) in split.shared]
    runs = [b for b in (head, base) if b is not None]
    first = runs[0] if runs else None
    record: dict[str, Any] = {
        key: first.record.get(key)
        for key in ("exitstatus", "hypothesis_version", "profile", "observe")
        if first is not None and key in first.record
    }
    record.update(
        tests=tests,
        collected=collected,
        collect_errors=errors,
        peak_rss_bytes=max((b.peak_rss for b in runs), default=0),
    )
    joined = Baseline(
        command=first.command if first is not None else (),
        exit_code=first.exit_code if first is not None else 5,
        record=record,
        seconds=max((b.seconds for b in runs), default=0.0),
        outside_tests=max((b.overhead for b in runs), default=0.0),
    )
    return JoinedBaseline(joined, at_head, len(tests) - at_head, tuple(sorted(dropped)))
