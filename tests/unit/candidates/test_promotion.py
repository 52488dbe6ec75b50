"""The promotion record: verification needs the head and base being merged (fails closed without
them), binds the record to candidates.json, the score report, every ledger and the authorship, and
reads each file once (what it parses is what it hashed). On real files written by the real writers."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from lanegate.candidates import promotion
from lanegate.candidates.promotion import PromotionError, promote, verify
from lanegate.candidates.report import REPORT_JSON, BatchFacts, combine
from lanegate.ledgers.load import dump_bytes, read_bytes, write_document
from lanegate.ledgers.models import (
    AuthorKind,
    CandidateEntry,
    CandidateEvidence,
    LedgerDigest,
    ScoreReport,
)

HEAD, BASE, OTHER = "a" * 40, "b" * 40, "c" * 40
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def _score(verdict: str, ledgers: tuple[LedgerDigest, ...]) -> ScoreReport:
    return ScoreReport(
        schema_version=1,
        utc=NOW,
        verdict=verdict,
        lane_name="t",
        lanegate_version="1",
        authorship=AuthorKind.AGENT,
        run_attempt=1,
        base_commit=BASE,
        head_commit=HEAD,
        ledgers=ledgers,
    )


def _batch(tmp_path: Path) -> Path:
    batch = tmp_path / "batch"
    folder = batch / "01-aaaaaaaaaaaa"
    folder.mkdir(parents=True)
    (folder / "property.json").write_bytes(b'{"evidence": 1}\n')
    ledger = LedgerDigest(name="property.json", digest=promotion._sha256(b'{"evidence": 1}\n'))
    digest = write_document(folder / "score-report.json", _score("pass", (ledger,)), "score-report")
    entry = CandidateEntry(
        ref="attempt",
        head_commit=HEAD,
        verdict="pass",
        ledgers="01-aaaaaaaaaaaa",
        score_report_digest=digest,
        group="sha256:" + "0" * 64,
        rank=None,
        evidence=CandidateEvidence(flake_power_pct=10, cpu_seconds=None, wall_seconds=None),
    )
    report = combine([entry], BatchFacts("main", BASE, None, "separate-run", 1, 1.0, NOW))
    write_document(batch / REPORT_JSON, report, "candidates")
    promote(batch, HEAD[:10], NOW)
    return batch


def _fails(record: Path, field: str, **expect: str) -> None:
    with pytest.raises(PromotionError) as caught:
        verify(record, head=expect.get("head", HEAD), base=expect.get("base", BASE))
    line = caught.value.diagnostic()
    assert len(line.splitlines()) == 1 and record.name in line and field in line, line


def test_a_record_verifies_only_against_the_head_and_base_being_merged(tmp_path: Path) -> None:
    record = _batch(tmp_path) / "promotion.json"
    assert verify(record, head=HEAD, base=BASE).head_commit == HEAD
    _fails(record, "--expect-head", head="")  # absent: closed, never checked against itself
    _fails(record, "--expect-base", base="")
    _fails(record, "head_commit", head=OTHER)
    _fails(record, "base_commit", base=OTHER)


def _rewrite(path: Path, edit: Callable[[bytes], bytes]) -> None:
    path.write_bytes(edit(path.read_bytes()))


def test_a_forged_score_report_with_a_matching_record_does_not_verify(tmp_path: Path) -> None:
    # the red team's forgery: rewrite the score report and the record's digest of it together
    batch = _batch(tmp_path)
    record = batch / "promotion.json"
    score = batch / "01-aaaaaaaaaaaa" / "score-report.json"
    forged = dump_bytes(_score("pass", ()))
    score.write_bytes(forged)
    old = record.read_bytes()
    new_digest = promotion._sha256(forged).encode()
    _rewrite(
        record, lambda b: b.replace(old.split(b'"score_report_digest": "')[1][:71], new_digest)
    )
    _fails(record, "head_commit")  # not a survivor of candidates.json with that report


def test_every_pinned_file_is_bound(tmp_path: Path) -> None:
    batch = _batch(tmp_path)
    record = batch / "promotion.json"
    ledger = batch / "01-aaaaaaaaaaaa" / "property.json"
    original = ledger.read_bytes()
    ledger.write_bytes(b'{"evidence": 2}\n')
    _fails(record, "ledgers")
    ledger.write_bytes(original)
    _rewrite(batch / REPORT_JSON, lambda b: b.replace(b'"jobs": 1', b'"jobs": 2'))
    _fails(record, "candidates_digest")


def test_each_file_is_read_once_and_the_hashed_bytes_are_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = _batch(tmp_path) / "promotion.json"
    reads: list[Path] = []

    def counted(path: Path) -> bytes:
        reads.append(path.resolve())
        return read_bytes(path)

    monkeypatch.setattr(promotion, "read_bytes", counted)
    verify(record, head=HEAD, base=BASE)
    assert len(reads) == len(set(reads)) == 4, reads  # record, batch, score report, one ledger
