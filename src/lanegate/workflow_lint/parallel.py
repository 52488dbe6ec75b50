"""Lint many files on several cores: the discovered files are split into chunks, each linted by a
forked worker with its own session; results are merged and sorted, so output does not depend on it."""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from lanegate.model import Finding
from lanegate.workflow_lint.discover import Discovered
from lanegate.workflow_lint.session import Session

PARALLEL_MIN_FILES = 200  # below this, starting workers costs more than it saves


# what the parent linted before forking (local actions); forked workers start from it
_INHERITED: dict[str, Session] = {}


# allocations between two passes of the cyclic collector while linting (CPython's default is 700)
COLLECT_EVERY = 50_000


@contextmanager
def _collect_less() -> Iterator[None]:
    """Parsed trees are many small containers without cycles, freed file by file: at the default
    threshold the cyclic collector re-scans the live ones every 700 allocations (about a tenth of a
    large repository's lint); it still runs, less often, and the threshold is restored after."""
    old = gc.get_threshold()
    gc.set_threshold(COLLECT_EVERY, old[1], old[2])
    try:
        yield
    finally:
        gc.set_threshold(*old)


def _lint_chunk(
    root: str, targets: list[tuple[str, str]]
) -> tuple[dict[str, tuple[Finding, ...]], list[str], dict[str, set[str]]]:
    from lanegate.workflow_lint.rule import FileKind

    parent = _INHERITED.get(root)
    session = Session(Path(root), judged_tests=parent.judged_tests if parent else None)
    if parent is not None:
        session.results.update(parent.results)
        session.evidence.update(parent.evidence)
        session.calls.update({k: set(v) for k, v in parent.calls.items()})
    inherited = len(session.not_analysed)
    with _collect_less():
        for path, kind in targets:
            session.lint(path, FileKind(kind))
    return session.results, session.not_analysed[inherited:], session.calls


def worker_count(files: int, jobs: int | None) -> int:
    """How many processes to use: `jobs` when given, else one per core for large runs (fork only)."""
    if jobs is not None:
        return max(1, jobs)
    if files < PARALLEL_MIN_FILES or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(os.cpu_count() or 1, 8))


def lint_all(session: Session, targets: Sequence[Discovered], workers: int) -> None:
    """Lint `targets` into `session.results`, on `workers` forked processes when more than one."""
    if workers <= 1 or len(targets) < 2:
        with _collect_less():
            for target in targets:
                session.lint(target.path, target.kind)
        return
    # local actions first, in this process: workflows use them, and every worker inherits them
    # instead of re-linting the same action chains
    from lanegate.workflow_lint.rule import FileKind

    for target in targets:
        if target.kind is FileKind.ACTION:
            session.lint(target.path, target.kind)
    targets = [t for t in targets if t.kind is not FileKind.ACTION]
    _INHERITED[str(session.root)] = session
    chunks: list[list[tuple[str, str]]] = [[] for _ in range(workers * 4)]
    for index, target in enumerate(targets):
        chunks[index % len(chunks)].append((target.path, str(target.kind)))
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(_lint_chunk, str(session.root), chunk) for chunk in chunks if chunk]
        for future in futures:
            results, not_analysed, calls = future.result()
            for path, findings in results.items():
                session.results.setdefault(path, findings)
            session.not_analysed.extend(not_analysed)
            for caller, called in calls.items():
                session.calls.setdefault(caller, set()).update(called)
