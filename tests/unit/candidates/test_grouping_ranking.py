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
    head: str,
    killed: int,
    power: int | None,
    cases: int,
    lines: int,
    verdict: str = "pass",
    planted: int | None = None,
) -> CandidateEntry:
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
            mutants_planted=killed if planted is None else planted,
            flake_power_pct=power,
            property_cases=cases,
            cpu_seconds=None,
            wall_seconds=None,
        ),
    )


FACTS = BatchFacts("main", "0" * 40, None, "separate-run", 2, 1.0, datetime(2026, 1, 1, tzinfo=UTC))


def _survivors(entries: list[CandidateEntry]) -> list[str]:
    return [h[0] for h in combine(entries, FACTS).survivors]


def test_survivors_rank_by_surviving_fraction_then_flake_rate_then_size_then_order_given() -> None:
    entries = [
        _entry("a", 1, 40, 20, 10),
        _entry("b", 3, 40, 20, 50, planted=4),  # a mutant left alive: after every full kill
        _entry("c", 1, 40, 20, 5),  # same evidence as a, smaller: before a
        _entry("d", 1, 40, 20, 5),  # same as c but given later: after c
        _entry("e", 9, 90, 90, 1, verdict="fail"),  # failed: never ranked
        _entry("f", 1, 10, 1, 99),  # detects a 10% flake: stronger than 40%, whatever its size
    ]
    report = combine(entries, FACTS)
    assert [h[0] for h in report.survivors] == ["f", "c", "d", "a", "b"]
    ranks = {e.head_commit[0]: e.rank for e in report.candidates}
    assert ranks == {"a": 4, "b": 5, "c": 2, "d": 3, "e": None, "f": 1}
    assert [e.head_commit[0] for e in report.candidates] == list("abcdef")  # order given
    assert len(report.groups) == 1 and len(report.groups[0].heads) == 6


def test_flake_power_lower_rate_is_stronger_and_none_measured_ranks_last() -> None:
    assert _survivors([_entry("a", 0, 60, 0, 5), _entry("b", 0, 5, 0, 5)]) == ["b", "a"]
    assert _survivors([_entry("a", 0, None, 0, 5), _entry("b", 0, 100, 0, 5)]) == ["b", "a"]


def test_padding_with_trivial_killed_mutants_does_not_outrank_an_honest_change() -> None:
    # the red team's shape: 4 trivial helpers, 16/16 killed, against an honest 0/0 change
    honest = _entry("h", 0, 20, 10, 6)
    padded = _entry("p", 16, 20, 400, 40)
    assert _survivors([padded, honest]) == ["h", "p"]
    assert _survivors([honest, padded]) == ["h", "p"]
    # a padded change that leaves one of its real mutants alive ranks below a tested one
    assert _survivors([_entry("p", 15, 20, 0, 40, planted=16), _entry("h", 2, 20, 0, 6)]) == [
        "h",
        "p",
    ]


def test_equal_evidence_is_ordered_as_given_never_by_head_commit() -> None:
    # "0..." sorts first by commit; an agent could grind a head commit to win a tie
    first, ground = _entry("f", 1, 20, 5, 9), _entry("0", 1, 20, 5, 9)
    assert _survivors([first, ground]) == ["f", "0"]
    assert _survivors([ground, first]) == ["0", "f"]
