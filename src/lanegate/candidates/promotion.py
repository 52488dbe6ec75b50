"""The promotion record: a survivor chosen for Lane A, and the check the merge gate makes of it.

`promote` writes `promotion.json` beside `candidates.json`: the survivor's head commit, the base it
was judged against, its authorship, the sha256 of the batch's report (`candidates.json`), of its
score report and of every ledger that report pins. `verify` requires the head and base the gate is
merging (fails closed without them), reads each file once and parses the very bytes it hashed (no
window between the check and the use), and fails closed, naming the file and the field, on a record
that does not parse, any file whose bytes changed, a report about another head or base, a head that
is not a survivor of the batch, or a verdict other than pass.

No key is involved: anyone who can rewrite every file of the batch can write a record that
verifies. The record's integrity comes from where it is stored (an artifact of the trusted run the
gate downloads, never a file of the pull request); see docs/threat-model.md.
"""

from __future__ import annotations

import hashlib
import os
from datetime import datetime
from pathlib import Path

from lanegate._version import __version__
from lanegate.candidates.report import REPORT_JSON
from lanegate.errors import LanegateError, LedgerError
from lanegate.ledgers.load import load_document, read_bytes, write_document
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


def _sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _read_once(path: Path, where: str) -> tuple[bytes, str]:
    """A file's bytes, read once, and their digest; what is parsed is what was hashed."""
    try:
        data = read_bytes(path)
    except LedgerError as exc:
        raise PromotionError(f"{where}: {exc.diagnostic()}") from None
    return data, _sha256(data)


def promote(batch: Path, head: str, now: datetime) -> Path:
    """Write `batch/promotion.json` for the survivor whose head commit is (or starts with) `head`."""
    where = batch / REPORT_JSON
    batch_bytes, batch_digest = _read_once(where, str(where))
    try:
        report = load_document(CandidatesReport, "candidates", batch_bytes, str(where)).value
    except LedgerError as exc:
        raise PromotionError(exc.diagnostic()) from None
    chosen = (
        [e for e in report.candidates if e.head_commit.startswith(head.lower()) and e.rank]
        if head
        else []
    )
    if not chosen:
        named = [e for e in report.candidates if head and e.head_commit.startswith(head.lower())]
        if named:
            raise PromotionError(
                f"{where}: candidates: {named[0].head_commit[:12]} is not a survivor "
                f"(verdict {named[0].verdict}); only a survivor is promoted",
                hint="pick a head from `survivors`",
            )
    if len(chosen) != 1:
        found = "no candidate" if not chosen else f"{len(chosen)} candidates"
        raise PromotionError(f"{where}: candidates: {found} with head {head!r}")
    entry = chosen[0]
    score = (batch / entry.ledgers / REPORT_FILE).resolve()
    if not _inside(score, batch.resolve()):
        raise PromotionError(f"{where}: ledgers: {entry.ledgers!r} leads outside {batch}")
    data, digest = _read_once(score, str(score))
    if digest != entry.score_report_digest:
        raise PromotionError(
            f"{score}: score_report_digest: the file's bytes are not the ones the batch judged"
        )
    try:
        scored = load_document(ScoreReport, "score-report", data, str(score)).value
    except LedgerError as exc:
        raise PromotionError(exc.diagnostic()) from None
    record = PromotionRecord(
        schema_version=SCHEMA_VERSION,
        kind=PROMOTION_KIND,
        lanegate_version=__version__,
        utc=now,
        head_commit=entry.head_commit,
        base_commit=report.base_commit,
        score_report=os.path.relpath(score, batch.resolve()),
        score_report_digest=digest,
        authorship=scored.authorship,
        candidates_digest=batch_digest,
        ledgers=scored.ledgers,
    )
    target = batch / PROMOTION_FILE
    write_document(target, record, "promotion")
    return target


def _check(name: str, field: str, want: object, got: object, what: str) -> None:
    if want != got:
        raise PromotionError(f"{name}: {field}: the record says {want}, {what} {got}")


def verify(path: Path, *, head: str, base: str) -> PromotionRecord:
    """Check a promotion record against the head and base being merged (both required), and
    every file it pins; the record, or PromotionError naming the file and the field."""
    name = path.name
    for field, value in (("--expect-head", head), ("--expect-base", base)):
        if not value:
            raise PromotionError(
                f"{name}: {field} is required: the record is checked against the head and base "
                "the gate merges, never against itself",
                hint="lanegate promote --verify FILE --expect-head SHA --expect-base SHA",
            )
    raw, _ = _read_once(path, name)
    try:
        record = load_document(PromotionRecord, "promotion", raw, str(path)).value
    except LedgerError as exc:
        raise PromotionError(exc.diagnostic()) from None
    if record.head_commit != head:
        raise PromotionError(
            f"{name}: head_commit: {record.head_commit[:12]} is not the head being merged "
            f"({head[:12]})"
        )
    if record.base_commit != base:
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
    # the batch's report: this head is one of its survivors, with this very score report
    batch_bytes, batch_digest = _read_once(folder / REPORT_JSON, f"{name}: candidates_digest")
    if batch_digest != record.candidates_digest:
        raise PromotionError(
            f"{name}: candidates_digest: {REPORT_JSON} hashes to {batch_digest}, "
            f"not {record.candidates_digest}",
            hint="the batch's report changed since the promotion; judge the candidates again",
        )
    try:
        batch = load_document(CandidatesReport, "candidates", batch_bytes, REPORT_JSON).value
    except LedgerError as exc:
        raise PromotionError(f"{name}: candidates_digest: {exc.diagnostic()}") from None
    _check(name, "base_commit", record.base_commit, batch.base_commit, f"{REPORT_JSON} says")
    if not any(
        e.head_commit == record.head_commit
        and e.rank is not None
        and e.score_report_digest == record.score_report_digest
        for e in batch.candidates
    ):
        raise PromotionError(
            f"{name}: head_commit: {record.head_commit[:12]} is not a survivor of "
            f"{REPORT_JSON} with score report {record.score_report_digest}"
        )
    # the score report: hashed and parsed from the same bytes
    data, digest = _read_once(score, f"{name}: score_report")
    if digest != record.score_report_digest:
        raise PromotionError(
            f"{name}: score_report_digest: {record.score_report} hashes to {digest}, "
            f"not {record.score_report_digest}",
            hint="the score report changed since the promotion; judge the candidates again",
        )
    try:
        report = load_document(ScoreReport, "score-report", data, str(score)).value
    except LedgerError as exc:
        raise PromotionError(f"{name}: score_report: {exc.diagnostic()}") from None
    what = "its score report says"
    _check(name, "head_commit", record.head_commit, report.head_commit, what)
    _check(name, "base_commit", record.base_commit, report.base_commit, what)
    _check(name, "authorship", record.authorship.value, report.authorship.value, what)
    _check(name, "ledgers", record.ledgers, report.ledgers, what)
    if report.verdict != "pass":
        raise PromotionError(f"{name}: score_report: its verdict is {report.verdict}, not pass")
    # every ledger the score report pins: the evidence behind the verdict, unchanged
    for ledger in record.ledgers:
        file = (score.parent / ledger.name).resolve()
        if not _inside(file, folder) or file.parent != score.parent:
            raise PromotionError(f"{name}: ledgers: {ledger.name!r} leads outside {score.parent}")
        _, got = _read_once(file, f"{name}: ledgers")
        if got != ledger.digest:
            raise PromotionError(
                f"{name}: ledgers: {ledger.name} hashes to {got}, not {ledger.digest}",
                hint="a ledger changed since the promotion; judge the candidates again",
            )
    return record
