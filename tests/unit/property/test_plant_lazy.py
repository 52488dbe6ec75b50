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
)
def test_lazy_selection_picks_what_eager_selection_picks(
    lines: frozenset[int], cap: int, seed: int
) -> None:
    eager = select(specs_for_file("ledgermath.py", SOURCE, lines, "sha256:d", seed), cap)
    lazy = _select(_pending("ledgermath.py", SOURCE, lines, "sha256:d", seed), cap)
    assert lazy == eager
    assert len(eager) <= cap
