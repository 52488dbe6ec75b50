"""The group key (same change in other words groups together, another change does not) and the
survivors' order (evidence, then size, then head commit), on plain values."""

from __future__ import annotations

from datetime import UTC, datetime

from lanegate.candidates.grouping import ChangedSource, _normalized, group_key
from lanegate.candidates.report import BatchFacts, combine
from lanegate.ledgers.models import CandidateEntry, CandidateEvidence

CODE = "def f(x):\n    return x + 1\n"


def _key(path: str, text: str | None) -> str:
    data = None if text is None else text.encode()
    return group_key([ChangedSource(path, _normalized(path, data))])


def test_layout_and_comments_do_not_count_but_code_and_other_bytes_do() -> None:
    same = "def f(x):  # add one\n\n    return (x  +  1)\n"
    assert _key("pkg/m.py", CODE) == _key("pkg/m.py", same)
    assert _key("pkg/m.py", CODE) != _key("pkg/m.py", CODE.replace("+ 1", "+ 2"))
    assert _key("pkg/m.py", CODE) != _key("pkg/other.py", CODE)
    assert _key("pkg/m.py", CODE) != _key("pkg/m.py", None)  # deleted
    assert _key("data.txt", "a b\n") != _key("data.txt", "a  b\n")  # not Python: bytes
    assert _key("bad.py", "def (:\n") != _key("bad.py", "def (:  \n")  # no parse: bytes
    # behaviour evidence, when given, splits what the text alone groups
    sources = [ChangedSource("pkg/m.py", _normalized("pkg/m.py", CODE.encode()))]
    assert group_key(sources, behaviour="a") != group_key(sources, behaviour="b")


def _entry(
    head: str, killed: int, power: int | None, cases: int, lines: int, verdict: str = "pass"
):  # type: ignore[no-untyped-def]
    return CandidateEntry(
        ref=head[:4],
        head_commit=head * 40 if len(head) == 1 else head,
        verdict=verdict,
        failed_rules=(),
        errors=(),
        ledgers=head,
        score_report_digest=None,
        group="sha256:" + "0" * 64,
        changed_lines=lines,
        rank=None,
        evidence=CandidateEvidence(
            mutants_killed=killed,
            mutants_planted=killed,
            flake_power_pct=power,
            property_cases=cases,
            cpu_seconds=None,
            wall_seconds=None,
        ),
    )


def test_survivors_rank_by_evidence_then_size_then_commit() -> None:
    entries = [
        _entry("a", 1, 40, 20, 10),
        _entry("b", 3, 10, 20, 50),  # most mutants killed: first, however large
        _entry("c", 1, 40, 20, 5),  # same evidence as a, smaller: before a
        _entry("d", 1, 40, 20, 5),  # same as c in everything but its commit: after c
        _entry("e", 9, 90, 90, 1, verdict="fail"),  # failed: never ranked
        _entry("f", 1, 60, 1, 99),  # more flake power than a, c, d
    ]
    facts = BatchFacts("main", "0" * 40, None, 2, 1.0, datetime(2026, 1, 1, tzinfo=UTC))
    report = combine(entries, facts)
    assert [h[0] for h in report.survivors] == ["b", "f", "c", "d", "a"]
    ranks = {e.head_commit[0]: e.rank for e in report.candidates}
    assert ranks == {"a": 5, "b": 1, "c": 3, "d": 4, "e": None, "f": 2}
    assert [e.head_commit[0] for e in report.candidates] == list("abcdef")  # order given
    assert len(report.groups) == 1 and len(report.groups[0].heads) == 6
