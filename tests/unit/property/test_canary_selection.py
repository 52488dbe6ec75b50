"""The canary selection checks candidates lazily: it picks exactly what the eager selection (every
candidate checked first, then `select_canaries` as it was written before the lazy one) picks."""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.lanes.property import canary
from lanegate.lanes.property.canary import canary_count, canary_specs_for_file
from lanegate.lanes.property.plant import MutantSpec

TARGETS = Path(__file__).resolve().parents[2] / "cases" / "property"
SOURCES = {
    path.name: path.read_bytes()
    for path in sorted(TARGETS.rglob("*.py"))
    if path.name != "__init__.py" and path.stat().st_size < 20_000
}
DIGEST = "sha256:" + "1" * 64
ALL_LINES = frozenset(range(1, 1000))
# the files with more canaries than a run plants: there the order of selection decides the picks
RICH = sorted(
    name
    for name, source in SOURCES.items()
    if len(canary_specs_for_file(name, source, ALL_LINES, DIGEST, 0)) >= 8
)


def _reference_select(found: list[tuple[MutantSpec, bool]], count: int) -> list[MutantSpec]:
    """`select_canaries` as it was before the lazy selection (the oracle of this test)."""
    ordered = sorted(found, key=lambda f: f[0].id)
    chosen: list[tuple[MutantSpec, bool]] = []
    families: set[str] = set()
    lines: set[tuple[str, int]] = set()
    for strictness in (2, 1, 0):
        for spec, code in ordered:
            fresh_line = (spec.path, spec.line) not in lines
            fits = [True, fresh_line, fresh_line and spec.operator not in families][strictness]
            if len(chosen) < count and (spec, code) not in chosen and fits:
                chosen.append((spec, code))
                families.add(spec.operator)
                lines.add((spec.path, spec.line))
    if chosen and not any(code for _, code in chosen):
        changing = [f for f in ordered if f[1]]
        if changing:
            chosen[-1] = changing[0]
    return sorted((s for s, _ in chosen), key=lambda s: (s.path, s.line, s.column, s.operator))


def _key(spec: MutantSpec) -> tuple[str, str, int, int, str, str]:
    return (spec.id, spec.path, spec.line, spec.column, spec.operator, spec.replacement)


def test_the_targets_have_canaries_to_choose_from() -> None:
    found = {
        name: canary_specs_for_file(name, src, frozenset(range(1, 400)), DIGEST, 0)
        for name, src in SOURCES.items()
    }
    assert sum(len(f) for f in found.values()) >= 20
    assert any(code for f in found.values() for _, code in f)
    assert any(not code for f in found.values() for _, code in f)
    assert len(RICH) >= 3


@settings(max_examples=150, deadline=None)
@given(
    name=st.sampled_from(RICH),
    seed=st.integers(0, 2**62),
    kept=st.one_of(st.just(ALL_LINES), st.frozensets(st.integers(1, 120), min_size=10)),
    real=st.integers(0, 40),
)
def test_lazy_selection_picks_what_the_eager_one_picks(
    name: str, seed: int, kept: frozenset[int], real: int
) -> None:
    source = SOURCES[name]
    lines = kept
    found = canary_specs_for_file(name, source, lines, DIGEST, seed)
    eager = _reference_select(found, canary_count(real, len(found)))
    pending = canary._pending_canaries(name, source, lines, DIGEST, seed)
    lazy = canary._select_canaries(pending, canary_count(real, len(pending)))
    assert [_key(s) for s in lazy] == [_key(s) for s in eager]
    assert [_key(s) for s in canary.select_canaries(found, canary_count(real, len(found)))] == [
        _key(s) for s in eager
    ]


def test_only_the_picked_candidates_are_checked() -> None:
    """On the canary target, four picks check far fewer candidates than there are."""
    name, source = "shapes.py", SOURCES["shapes.py"]
    lines = frozenset(range(1, source.count(b"\n") + 2))
    pending = canary._pending_canaries(name, source, lines, DIGEST, 7)
    canary._select_canaries(pending, 4)
    checked = sum(1 for p in pending if p._resolved)
    assert len(pending) >= 12 and checked <= len(pending) // 2, (checked, len(pending))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab \r\n\x0b\x0c\x1c\u2028\u0085", max_size=40))
def test_lines_split_as_the_ast_module_splits_them(text: str) -> None:
    assert canary.split_lines(text) == ast._splitlines_no_ff(text)  # type: ignore[attr-defined]


def test_source_segments_are_the_ast_modules() -> None:
    """Every positioned node of every case file: the same segment as `ast.get_source_segment`."""
    compared = 0
    for source in SOURCES.values():
        text = source.decode("utf-8", "surrogateescape")
        lines = canary.split_lines(text)
        for node in ast.walk(ast.parse(source)):
            if hasattr(node, "end_col_offset"):
                assert canary.source_segment(lines, node) == ast.get_source_segment(text, node)
                compared += 1
    assert compared > 1000
