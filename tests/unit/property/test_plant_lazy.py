"""Planting checks a candidate only when selection would pick it: the picks equal those made from
every candidate checked first; and every file a draw plants in is known before the draw."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.diff import classify_diff
from lanegate.lanes.property.canary import plan_canaries
from lanegate.lanes.property.plant import (
    _pending,
    _select,
    plan_from_summary,
    planting_candidates,
    select,
    specs_for_file,
)
from lanegate.policy import Policy
from tests.gitrepo import Repo

TARGET = Path(__file__).resolve().parents[2] / "cases" / "property" / "target" / "ledgermath.py"
SOURCE = TARGET.read_bytes()
LINES = SOURCE.count(b"\n") + 1


@settings(max_examples=25, deadline=None)
@given(
    st.frozensets(st.integers(1, LINES), max_size=LINES),
    st.sampled_from([0, 1, 3, 12, 200]),
    st.integers(0, 3),
    st.integers(0, 2**62 - 1),
)
def test_lazy_selection_picks_what_eager_selection_picks(
    lines: frozenset[int], cap: int, seed: int, draw: int
) -> None:
    eager = select(specs_for_file("ledgermath.py", SOURCE, lines, "sha256:d", seed), cap, draw)
    lazy = _select(_pending("ledgermath.py", SOURCE, lines, "sha256:d", seed), cap, draw)
    assert lazy == eager
    assert len(eager) <= cap


def test_every_candidate_is_planted_by_some_draw_and_no_draw_breaks_the_caps() -> None:
    # a diff cannot pick the one candidate of its line the lane will never plant: there is none
    every = frozenset(range(1, LINES + 1))
    specs = specs_for_file("ledgermath.py", SOURCE, every, "sha256:d", 0)
    assert len(specs) > 12
    seen: set[str] = set()
    picks = set()
    for draw in range(300):
        chosen = select(specs, 12, draw)
        assert len(chosen) == 12
        per_line: dict[int, int] = {}
        for spec in chosen:
            per_line[spec.line] = per_line.get(spec.line, 0) + 1
        assert max(per_line.values()) <= 2
        seen.update(spec.id for spec in chosen)
        picks.add(tuple(spec.id for spec in chosen))
    assert seen == {spec.id for spec in specs}
    assert len(picks) > 250  # draws differ, not a handful of fixed plans


def test_every_file_a_draw_plants_in_is_a_planting_candidate_known_before_the_draw(
    make_repo: Callable[[str], Repo],
) -> None:
    # the selected runs record calls into the candidates before any mutant is drawn: a draw that
    # planted outside them would leave its mutants' tests unknown
    repo = make_repo("cands")
    repo.write("src/pkg/a.py", "def f(x):\n    return x + 1\n")
    repo.write("src/pkg/b.py", "def g(x):\n    return x * 2\n")
    repo.write("src/pkg/gone.py", "def h(x):\n    return x - 1\n")
    repo.write("tests/test_a.py", "from pkg.a import f\n\ndef test_f():\n    assert f(1) == 2\n")
    repo.commit("base")
    repo.branch("agent")
    repo.write("src/pkg/a.py", "def f(x):\n    if x < 3:\n        return x + 1\n    return x + 1\n")
    repo.write("src/pkg/b.py", "def g(x):\n    return x * 2 + 0\n")
    repo.write("src/pkg/notes.txt", "changed\n")
    repo.write("tests/test_a.py", "from pkg.a import f\n\ndef test_f():\n    assert f(2) == 3\n")
    repo.remove("src/pkg/gone.py")
    repo.commit("agent")
    policy = Policy()
    summary = classify_diff(repo.path, "main", policy)
    candidates = planting_candidates(repo.path, summary, policy)
    assert candidates == ["src/pkg/a.py", "src/pkg/b.py"]
    for draw in range(20):
        specs = plan_from_summary(repo.path, summary, policy, draw=draw)
        canaries = plan_canaries(repo.path, summary, policy, draw, len(specs))
        assert specs
        assert {s.path for s in (*specs, *canaries)} <= set(candidates)
