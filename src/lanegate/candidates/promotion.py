"""The promotion record: a survivor chosen for Lane A, and the check the merge gate makes of it.

`promote` writes `promotion.json` beside `candidates.json`: the survivor's head commit, the base it
was judged against, and the sha256 of its score report's bytes. `verify` re-reads everything and
fails closed, naming the file and the field, on a record that does not parse, a report whose bytes
changed, a report about another head or base, a verdict other than pass, or a head or base other
than the one the gate expects.
"""

from __future__ import annotations

import hashlib
import os
from datetime import datetime
from pathlib import Path

from lanegate._version import __version__
from lanegate.candidates.report import REPORT_JSON
from lanegate.errors import LanegateError, LedgerError
from lanegate.ledgers.load import load_file, read_bytes, write_document
from lanegate.ledgers.models import (
    PROMOTION_KIND,
    SCHEMA_VERSION,
    CandidatesReport,
    PromotionRecord,
    ScoreReport,
)
from lanegate.run.orchestrate import REPORT_FILE

PROMOTION_FILE = "promotion.json"


class PromotionError(LanegateError):
    """A promotion that cannot be made, or a record that does not verify."""


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def promote(batch: Path, head: str, now: datetime) -> Path:
    """Write `batch/promotion.json` for the survivor whose head commit is (or starts with) `head`."""
    report = load_file(CandidatesReport, "candidates", batch / REPORT_JSON).value
    where = batch / REPORT_JSON
    chosen = (
        [e for e in report.candidates if e.head_commit.startswith(head.lower())] if head else []
    )
    if len(chosen) != 1:
        found = "no candidate" if not chosen else f"{len(chosen)} candidates"
        raise PromotionError(f"{where}: candidates: {found} with head {head!r}")
    entry = chosen[0]
    if entry.rank is None:
        raise PromotionError(
            f"{where}: candidates: {entry.head_commit[:12]} is not a survivor "
            f"(verdict {entry.verdict}); only a survivor is promoted",
            hint="pick a head from `survivors`",
        )
    score = (batch / entry.ledgers / REPORT_FILE).resolve()
    if not _inside(score, batch.resolve()):
        raise PromotionError(f"{where}: ledgers: {entry.ledgers!r} leads outside {batch}")
    data = read_bytes(score)
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    if digest != entry.score_report_digest:
        raise PromotionError(
            f"{score}: score_report_digest: the file's bytes are not the ones the batch judged"
        )
    record = PromotionRecord(
        schema_version=SCHEMA_VERSION,
        kind=PROMOTION_KIND,
        lanegate_version=__version__,
        utc=now,
        head_commit=entry.head_commit,
        base_commit=report.base_commit,
        score_report=os.path.relpath(score, batch.resolve()),
        score_report_digest=digest,
    )
    target = batch / PROMOTION_FILE
    write_document(target, record, "promotion")
    return target


def verify(path: Path, *, head: str | None = None, base: str | None = None) -> PromotionRecord:
    """Check a promotion record and the score report it pins; the record, or PromotionError."""
    name = path.name
    try:
        record = load_file(PromotionRecord, "promotion", path).value
    except LedgerError as exc:
        raise PromotionError(exc.diagnostic()) from None
    if head is not None and record.head_commit != head:
        raise PromotionError(
            f"{name}: head_commit: {record.head_commit[:12]} is not the head being merged "
            f"({head[:12]})"
        )
    if base is not None and record.base_commit != base:
        raise PromotionError(
            f"{name}: base_commit: {record.base_commit[:12]} is not the base being merged into "
            f"({base[:12]})"
        )
    folder = path.parent.resolve()
    score = (folder / record.score_report).resolve()
    if not _inside(score, folder) or os.path.isabs(record.score_report):
        raise PromotionError(
            f"{name}: score_report: {record.score_report!r} leads outside {folder}"
        )
    try:
        data = read_bytes(score)
    except LedgerError as exc:
        raise PromotionError(f"{name}: score_report: {exc.diagnostic()}") from None
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    if digest != record.score_report_digest:
        raise PromotionError(
            f"{name}: score_report_digest: {record.score_report} hashes to {digest}, "
            f"not {record.score_report_digest}",
            hint="the score report changed since the promotion; judge the candidates again",
        )
    try:
        report = load_file(ScoreReport, "score-report", score).value
    except LedgerError as exc:
        raise PromotionError(f"{name}: score_report: {exc.diagnostic()}") from None
    for field, want, got in (
        ("head_commit", record.head_commit, report.head_commit),
        ("base_commit", record.base_commit, report.base_commit),
    ):
        if want != got:
            raise PromotionError(
                f"{name}: {field}: the record says {want[:12]}, its score report {str(got)[:12]}"
            )
    if report.verdict != "pass":
        raise PromotionError(f"{name}: score_report: its verdict is {report.verdict}, not pass")
    return record
