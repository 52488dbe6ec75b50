"""flake_leases.json: validating the human-renewed leases and evaluating each one for the scorer.

A lease never skips a test: the test is replayed like any other. A lease only lets the scorer excuse a
known human flake in Lane A, and only when it is in public (SPEC 6): the pull request body must carry
a line `lanegate-lease: <test_id> expires <ISO timestamp>` with the same expiry.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from lanegate import git
from lanegate.errors import LeaseError, LedgerError
from lanegate.ledgers.load import load_document, load_file
from lanegate.ledgers.models import Lease, LeaseEvaluation, LeasesFile
from lanegate.scoring.flake_rules import parse_pr_leases


def _check_semantics(leases: LeasesFile, where: str) -> LeasesFile:
    seen: set[str] = set()
    for index, lease in enumerate(leases.leases):
        at = f"{where}: leases[{index}]"
        if not lease.test_id.strip():
            raise LeaseError(f"{at}.test_id: must not be empty")
        if lease.test_id in seen:
            raise LeaseError(f"{at}.test_id: {lease.test_id!r} is leased twice")
        seen.add(lease.test_id)
        if lease.leased_at >= lease.expires_at:
            raise LeaseError(
                f"{at}.expires_at: {lease.expires_at.isoformat()} is not after leased_at "
                f"{lease.leased_at.isoformat()}"
            )
    return leases


def parse_leases(data: bytes, where: str) -> LeasesFile:
    """Bytes of flake_leases.json -> a validated `LeasesFile`; one `LeaseError` line on any problem.

    Shape errors (missing field, wrong type, a timestamp without a zone, a root_cause_hash of the wrong
    format) and `leased_at >= expires_at` or a duplicate test id are errors. A class outside {timing,
    order, environment} or `reruns_used > max_reruns` is kept and evaluated: the scorer fails it.
    """
    try:
        loaded = load_document(LeasesFile, "leases", data, where)
    except LedgerError as exc:
        raise LeaseError(str(exc)) from None
    return _check_semantics(loaded.value, where)


def load_leases(repo: Path, leases_file: str, commit: str | None = None) -> LeasesFile | None:
    """The leases file of `repo` at `commit` (or in the work tree); None when there is none."""
    rel = leases_file.strip("/")
    if commit is not None:
        data = git.show_file(repo, commit, rel)
        if data is None:
            return None
        return parse_leases(data, rel)
    path = repo / rel
    if not path.exists():
        return None
    try:
        loaded = load_file(LeasesFile, "leases", path)
    except LedgerError as exc:
        raise LeaseError(str(exc)) from None
    return _check_semantics(loaded.value, rel)


def pr_body_leases(body: str) -> dict[str, list[datetime | None]]:
    """Every `lanegate-lease: <test_id> expires <ISO timestamp>` line of a PR body: test id -> the
    expiries shown (None: unreadable or without a zone). The scorer's own parser, so that the lane and
    the scorer can never read a PR body differently."""
    return parse_pr_leases(body)


def _base(node_id: str) -> str:
    return node_id.split("[", 1)[0]


def _shown_expiry(lease: Lease, shown: dict[str, list[datetime | None]]) -> datetime | None:
    """The expiry the PR body shows for this lease: a differing or unreadable one wins (fail closed)."""
    values = shown.get(lease.test_id, [])
    if not values:
        return None
    for value in values:
        if value is None:
            return None
        if value != lease.expires_at:
            return value
    return values[0]


def evaluate_leases(
    leases: LeasesFile | None, touched: Iterable[str], pr_body: str | None
) -> tuple[LeaseEvaluation, ...]:
    """Each lease with what the diff and the PR body say of it. Touched means the diff added or changed
    the leased test (its id, or the function id of a parametrized id)."""
    if leases is None:
        return ()
    touched_ids = set(touched) | {_base(t) for t in touched}
    shown = pr_body_leases(pr_body) if pr_body is not None else {}
    return tuple(
        LeaseEvaluation(
            test_id=lease.test_id,
            lease_class=lease.lease_class,
            leased_at=lease.leased_at,
            expires_at=lease.expires_at,
            root_cause_hash=lease.root_cause_hash,
            max_reruns=lease.max_reruns,
            reruns_used=lease.reruns_used,
            touched_by_diff=lease.test_id in touched_ids or _base(lease.test_id) in touched_ids,
            pr_body_checked=pr_body is not None,
            pr_body_expires_at=_shown_expiry(lease, shown) if pr_body is not None else None,
        )
        for lease in leases.leases
    )
