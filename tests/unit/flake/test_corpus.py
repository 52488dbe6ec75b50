"""The planted corpus, replayed as ONE lane run: what the plan must catch, and what it must not flag."""

from __future__ import annotations

from pathlib import Path

from benchmarks.flake_bench import build_corpus_repo, load_manifest

from lanegate.lanes.context import LaneContext
from lanegate.lanes.flake import run_lane
from lanegate.ledgers.load import load_file
from lanegate.ledgers.models import FlakeLedger
from lanegate.policy import Policy

# Classes whose flakes the plan exposes by construction (order, repeats, zones), not by a seed's luck.
CAUGHT_BY_CONSTRUCTION = frozenset(
    {
        "order-victim",
        "order-brittle",
        "self-polluter",
        "time-zone",
        "cwd-leak",
        "env-leak",
        "tempdir-leak",
        "sys-path-leak",
        "float-self-polluter",
    }
)


def test_corpus_is_labelled_and_large_enough() -> None:
    tests = load_manifest()
    flaky = [t for t in tests if t.flaky]
    assert len(flaky) >= 30 and len(tests) - len(flaky) >= 30
    assert len({t.node_id for t in tests}) == len(tests)
    assert len({t.test_class for t in flaky}) >= 9


def test_one_lane_run_catches_the_planted_flakes_and_no_look_alike(tmp_path: Path) -> None:
    tests = load_manifest()
    repo = build_corpus_repo(tmp_path / "corpus")
    outcome = run_lane(
        LaneContext(repo=repo, base="main", policy=Policy(), out_dir=tmp_path / "out")
    )
    assert not outcome.would_pass
    ledger = load_file(FlakeLedger, "flake", outcome.ledger_path).value
    assert len(ledger.replays) == 3  # the whole corpus: three pytest processes
    flagged = {t.node_id.split("[", 1)[0] for t in ledger.tests if not t.deterministic}
    assert {t.node_id for t in ledger.tests} == {t.node_id for t in tests}
    false_positives = sorted(t.node_id for t in tests if not t.flaky and t.node_id in flagged)
    assert false_positives == []
    missed_by_construction = sorted(
        t.node_id
        for t in tests
        if t.flaky and t.test_class in CAUGHT_BY_CONSTRUCTION and t.node_id not in flagged
    )
    assert missed_by_construction == []
    flaky = [t for t in tests if t.flaky]
    caught = sum(1 for t in flaky if t.node_id in flagged)
    assert caught / len(flaky) >= 0.85, sorted(t.node_id for t in flaky if t.node_id not in flagged)
