"""flake_leases.json: validating the human-renewed leases and evaluating each one for the scorer.

A lease never skips a test: the test is replayed like any other. A lease only lets the scorer excuse a
known human flake in Lane A, and only when it is in public (SPEC 6): the pull request body must carry
a line `lanegate-lease: <test_id> expires <ISO timestamp>` with the same expiry.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from lanegate import git
from lanegate.errors import LeaseError, LedgerError
from lanegate.ledgers.load import load_document, load_file
from lanegate.ledgers.models import LEASE_CLASSES, Lease, LeaseEvaluation, LeasesFile

PR_BODY_LINE = re.compile(r"lanegate-lease:\s*`?([^\s`]+)`?\s+expires\s+`?([^\s`]+)`?", re.IGNORECASE)
MAX_PR_BODY_BYTES = 1_000_000


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


def _parse_timestamp(text: str) -> datetime | None:
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return value if value.tzinfo is not None else None


def pr_body_leases(body: str) -> dict[str, list[datetime | None]]:
    """Every `lanegate-lease:` line of a PR body: test id -> the expiries it shows (None: unreadable)."""
    found: dict[str, list[datetime | None]] = {}
    for line in body.splitlines():
        match = PR_BODY_LINE.search(line)
        if match:
            found.setdefault(match.group(1), []).append(_parse_timestamp(match.group(2)))
    return found


def read_pr_body(path: Path) -> str:
    """A PR body from a file (e.g. written from the event payload); capped and UTF-8."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LeaseError(f"{path}: cannot read the PR body: {exc.strerror}") from None
    if len(data) > MAX_PR_BODY_BYTES:
        raise LeaseError(f"{path}: PR body is {len(data)} bytes, over {MAX_PR_BODY_BYTES}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LeaseError(f"{path}: PR body is not UTF-8 (byte {exc.start})") from None


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
    out: list[LeaseEvaluation] = []
    for lease in leases.leases:
        out.append(
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
        )
    return tuple(out)


def lease_problems(
    evaluation: LeaseEvaluation, *, now: datetime, agent: bool
) -> tuple[list[str], list[str]]:
    """(fails, warnings) of one evaluated lease under SPEC 5 and 6, at `now`.

    Used for the lane's own summary until the scorer's `lane_reasons` decides; kept in step with it.
    """
    fails: list[str] = []
    warns: list[str] = []
    who = evaluation.test_id
    if evaluation.lease_class not in LEASE_CLASSES:
        fails.append(f"lease on {who}: class {evaluation.lease_class!r} is not one of {LEASE_CLASSES}")
    if evaluation.reruns_used > evaluation.max_reruns:
        fails.append(
            f"lease on {who}: reruns_used {evaluation.reruns_used} > max_reruns {evaluation.max_reruns}"
        )
    expired = evaluation.expires_at <= now
    if expired and evaluation.root_cause_hash is None:
        fails.append(f"lease on {who}: expired {evaluation.expires_at.isoformat()} with no root cause")
    if agent and evaluation.touched_by_diff:
        fails.append(f"lease on {who}: the agent's diff touched this test; Lane B ignores the lease")
    if not evaluation.pr_body_checked:
        fails.append(f"lease on {who}: no PR body was given to show it (lanegate-lease: line)")
    elif evaluation.pr_body_expires_at is None:
        fails.append(f"lease on {who}: the PR body does not show it (lanegate-lease: {who} expires ...)")
    elif evaluation.pr_body_expires_at != evaluation.expires_at:
        fails.append(
            f"lease on {who}: the PR body shows expiry {evaluation.pr_body_expires_at.isoformat()}, "
            f"the lease says {evaluation.expires_at.isoformat()}"
        )
    if not fails and not expired and evaluation.root_cause_hash is None:
        warns.append(f"lease on {who}: active until {evaluation.expires_at.isoformat()}, no root cause yet")
    return fails, warns
