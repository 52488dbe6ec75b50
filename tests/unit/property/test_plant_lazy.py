"""Planting checks a candidate only when selection would pick it: the picks equal those made from
every candidate checked first."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.lanes.property.plant import _pending, _select, select, specs_for_file

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
