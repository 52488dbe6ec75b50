"""Which mutants a diff gets: only on changed source lines, a floor per function, capped, drawn.

A mutant's id is `m-` + sha256(diff digest, seed, operator version, path, line, operator, column):
the candidates are the same in every run. Which of them are planted (every changed function's first
`min_mutants_per_function`, then two per line up to `max_mutants` in all) follows a **draw**: a
per-run secret the lane picks after the diff is written, recorded in the ledger (and in a shard
plan), so that the scorer re-derives the planted set (`planned_ids`) and rejects a ledger that
invents or drops mutants, while a diff cannot compute in advance which of its line's candidates will
be planted (docs/threat-model.md). Selection order is sha256(draw, id): no clock, no RNG state, no
dict order.
"""

from __future__ import annotations

import ast
import hashlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from lanegate import git
from lanegate.diff import DiffSummary, Role, changed_lines, classify_diff, is_test_file
from lanegate.lanes.property.operators import (
    OPERATORS_VERSION,
    Candidate,
    Edit,
    apply_edit,
    candidates,
    original_text,
)
from lanegate.lanes.property.statement_parse import ModuleStatements
from lanegate.lanes.property.syntax_equal import same_syntax
from lanegate.policy import Policy
from lanegate.pysource import as_utf8
from lanegate.pysource import parse as parse_python

MAX_PER_LINE = 2
MAX_DRAW = 2**62  # draws are 62-bit: exact as an integer in every JSON reader


@dataclass(frozen=True, slots=True)
class MutantSpec:
    """One planted mutant: where, which operator, the edit, and the function that contains it."""

    id: str
    path: str
    edit: Edit
    original: str
    function: str
    function_line: int
    owner: str = ""  # the def whose default or decorator holds it (`Candidate.owner`)
    # the worker may give the live function the mutated code (`hotpatch`); False when the edit
    # changes what the `def` statement itself makes (a revert to other defaults or decorators),
    # which only a fresh import of the mutated module gives
    hot: bool = True

    @property
    def budget_function(self) -> str:
        """The function whose budget and floor this mutant counts toward, as the ledger names it:
        the def it parameterizes, for an edit of a default or a decorator; else its function."""
        return self.owner or self.function

    @property
    def operator(self) -> str:
        return self.edit.operator

    @property
    def line(self) -> int:
        return self.edit.line

    @property
    def column(self) -> int:
        return self.edit.column

    @property
    def replacement(self) -> str:
        return self.edit.replacement

    def mutated_source(self, source: bytes) -> bytes:
        """The file's bytes with this mutant applied."""
        return apply_edit(source, self.edit)


def mutant_id(diff_digest: str, seed: int, path: str, line: int, operator: str, column: int) -> str:
    """The stable id of a mutant (see module docstring)."""
    key = f"{diff_digest}\0{seed}\0{OPERATORS_VERSION}\0{path}\0{line}\0{operator}\0{column}"
    return "m-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def draw_order(mutant: str, draw: int) -> str:
    """A candidate's place in the selection order of draw `draw` (lower is picked first)."""
    return hashlib.sha256(f"{draw}\0{mutant}".encode()).hexdigest()


def new_draw() -> int:
    """A fresh secret draw in [0, MAX_DRAW)."""
    return secrets.randbelow(MAX_DRAW)


def policy_draw(policy: Policy) -> int:
    """The draw a run (or a shard plan) plants with: the policy's fixed one, else a fresh secret."""
    pinned = policy.properties.mutant_draw
    return new_draw() if pinned is None else pinned


def _under(path: str, folder: str) -> bool:
    folder = folder.strip("/")
    return folder in ("", ".") or path == folder or path.startswith(folder + "/")


def mutable_sources(summary: DiffSummary, policy: Policy) -> list[str]:
    """Changed Python source files under `properties.source_dirs` (never tests or conftest)."""
    out = []
    for changed in summary.with_role(Role.SOURCE):
        path = changed.path
        if not path.endswith(".py") or is_test_file(path) or changed.binary:
            continue
        if "tests" in PurePosixPath(path).parts[:-1] or "test" in PurePosixPath(path).parts[:-1]:
            continue
        if any(_under(path, d) for d in policy.properties.source_dirs):
            out.append(path)
    return sorted(out)


def planting_candidates(repo: Path, summary: DiffSummary, policy: Policy) -> list[str]:
    """Every file a mutant or a canary of this diff can be planted in: its mutable sources that the
    head has (what `plan_from_summary` and `canary.plan_canaries` read), before any is drawn."""
    return [
        path
        for path in mutable_sources(summary, policy)
        if git.show_file(repo, summary.head_commit, path) is not None
    ]


def _compiled_tree(source: bytes, path: str) -> ast.Module | None:
    """The syntax tree of `source` when it also compiles (parsed once), else None."""
    try:
        tree = parse_python(source, path)
        compile(tree, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return None
    return tree


class SyntaxTree:
    """An unmutated module's top-level statements: `equals` tells a mutated module's tree from it
    by the edited statement first."""

    def __init__(self, tree: ast.Module) -> None:
        self.body = tree.body

    def statement_equals(self, index: int, node: ast.stmt) -> bool:
        """Whether `node` is the module's statement `index`, as `ast.dump` would print both."""
        return same_syntax(node, self.body[index])

    def equals(self, mutated: ast.Module, line: int) -> bool:
        """`ast.dump(mutated) == ast.dump(original)`, deciding on the statement holding `line`
        first: a real mutant differs there, so the rest of the module is not compared for it."""
        if len(mutated.body) != len(self.body):
            return False
        order = sorted(
            range(len(self.body)),
            key=lambda i: (
                not (
                    self.body[i].lineno <= line <= (self.body[i].end_lineno or self.body[i].lineno)
                )
            ),
        )
        return all(self.statement_equals(i, mutated.body[i]) for i in order)


class _Pending:
    """The candidates of one mutant id (one place, one operator), checked only when selection asks:
    the first that compiles and changes the syntax tree is the mutant."""

    def __init__(self, first: MutantSpec, check: Callable[[MutantSpec], bool]) -> None:
        self.id, self.path, self.line, self.operator = (
            first.id,
            first.path,
            first.line,
            first.operator,
        )
        self.function = first.budget_function
        self.options = [first]
        self._check = check
        self._resolved = False
        self._spec: MutantSpec | None = None

    def resolve(self) -> MutantSpec | None:
        if not self._resolved:
            self._spec = next((o for o in self.options if self._check(o)), None)
            self._resolved = True
        return self._spec


def _pending(
    path: str, source: bytes, lines: frozenset[int], digest: str, seed: int
) -> list[_Pending]:
    """The candidates on `lines` of one file, by mutant id, not yet checked."""
    try:
        tree = parse_python(source, path)
    except (SyntaxError, ValueError):
        return []
    original = SyntaxTree(tree)
    statements = ModuleStatements(source, tree)

    def check(spec: MutantSpec) -> bool:
        mutated_source = spec.mutated_source(source)
        alone = statements.reparse(mutated_source, spec.line)
        if alone is not None and alone.code(path) is not None:
            return not original.statement_equals(alone.index, alone.node)
        mutated = _compiled_tree(mutated_source, path)
        return mutated is not None and not original.equals(mutated, spec.line)

    out: dict[str, _Pending] = {}
    for cand in candidates(tree, source):
        if cand.edit.line not in lines:
            continue
        spec = _spec(path, source, cand, digest, seed)
        if spec.id in out:
            out[spec.id].options.append(spec)
        else:
            out[spec.id] = _Pending(spec, check)
    return list(out.values())


def specs_for_file(
    path: str, source: bytes, lines: frozenset[int], digest: str, seed: int
) -> list[MutantSpec]:
    """Every valid mutant candidate on `lines` of one file (before the per-line and global caps)."""
    resolved = (p.resolve() for p in _pending(path, source, lines, digest, seed))
    return [spec for spec in resolved if spec is not None]


def _spec(path: str, source: bytes, cand: Candidate, digest: str, seed: int) -> MutantSpec:
    edit = cand.edit
    ident = mutant_id(digest, seed, path, edit.line, edit.operator, edit.column)
    return MutantSpec(
        id=ident,
        path=path,
        edit=edit,
        original=original_text(source, edit),
        function=cand.function,
        function_line=cand.function_line,
        owner=cand.owner,
    )


def select(
    specs: list[MutantSpec], max_mutants: int, draw: int, floor: int = 0
) -> list[MutantSpec]:
    """Every changed function's first `floor` mutants, whatever the cap; then at most MAX_PER_LINE
    per line (distinct operators first), round-robin over lines up to the cap, one mutant of every
    changed function first; ties in the order of draw `draw`."""
    return _select([_Pending(spec, lambda _: True) for spec in specs], max_mutants, draw, floor)


def _select(
    pending: list[_Pending], max_mutants: int, draw: int, floor: int = 0
) -> list[MutantSpec]:
    """`select` over unchecked candidates: a candidate is checked only when it would be picked, so
    the picks are those `select` makes from the checked list, at a fraction of the compiles."""
    by_line: dict[tuple[str, int], list[_Pending]] = {}
    for item in sorted(pending, key=lambda p: draw_order(p.id, draw)):
        by_line.setdefault((item.path, item.line), []).append(item)
    picks = {line: _line_picks(group, MAX_PER_LINE) for line, group in by_line.items()}
    chosen = _function_floor(by_line, picks, floor, draw)
    taken = {spec.id for spec in chosen}
    rounds = [[p[i] for p in picks.values() if len(p) > i] for i in range(MAX_PER_LINE)]
    order = [
        *_functions_first(rounds[0], draw),
        *(spec for batch in rounds[1:] for spec in sorted(batch, key=lambda s: _drawn(s, draw))),
    ]
    for spec in order:
        if len(chosen) >= max_mutants:
            break
        if spec.id not in taken:
            chosen.append(spec)
            taken.add(spec.id)
    return sorted(chosen, key=lambda s: (s.path, s.line, s.column, s.operator))


def _line_picks(group: list[_Pending], limit: int) -> list[MutantSpec]:
    """Up to `limit` valid mutants of one line's candidates (in the draw's order), distinct
    operators first: they test different things. A shorter limit's picks are a prefix of a longer
    one's."""
    picked: list[MutantSpec] = []
    for item in group:
        if len(picked) < limit and all(p.operator != item.operator for p in picked):
            spec = item.resolve()
            if spec is not None:
                picked.append(spec)
    for item in group:
        if len(picked) < limit and all(p.id != item.id for p in picked):
            spec = item.resolve()
            if spec is not None:
                picked.append(spec)
    return picked


def _function_floor(
    by_line: dict[tuple[str, int], list[_Pending]],
    picks: dict[tuple[str, int], list[MutantSpec]],
    floor: int,
    draw: int,
) -> list[MutantSpec]:
    """Each changed function's first `floor` mutants, planted past the cap (SPEC 9: dilution):
    helpers a diff adds cannot leave the function that matters one mutant, or none, under a shared
    cap, and `property-function-budget` judges every function on `floor` of its own. A function
    takes its lines' picks round-robin (every line's first, then every line's second, ...), past
    MAX_PER_LINE where its lines have fewer picks than the floor: a one-line change is judged on
    `floor` mutants, not on the two a long diff's lines each get. Functions are keyed as that rule
    groups them, by path and qualified name."""
    if floor <= 0:
        return []
    lines_of: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for line, group in by_line.items():
        lines_of.setdefault((group[0].path, group[0].function), []).append(line)
    out: list[MutantSpec] = []
    for lines in lines_of.values():
        own = {line: picks[line] for line in lines}
        if sum(len(p) for p in own.values()) < floor:
            own = {line: _line_picks(by_line[line], floor) for line in lines}
        width = max(len(p) for p in own.values())
        taken: list[MutantSpec] = []
        for i in range(width):
            batch = sorted(
                (p[i] for p in own.values() if len(p) > i), key=lambda s: _drawn(s, draw)
            )
            taken.extend(batch)
        out.extend(taken[:floor])
    return out


def _drawn(spec: MutantSpec, draw: int) -> str:
    """`spec`'s place in the order of draw `draw`."""
    return draw_order(spec.id, draw)


def _functions_first(batch: list[MutantSpec], draw: int) -> list[MutantSpec]:
    """The first round in pick order: one mutant of every changed function first (each function's
    first in the draw's order), then the rest in that order. Under the cap a long function cannot
    crowd a short one out of the plan: every changed function with a candidate gets a mutant
    (SPEC 9) while the cap allows."""
    ordered = sorted(batch, key=lambda s: draw_order(s.id, draw))
    leaders: dict[tuple[str, str], MutantSpec] = {}
    for spec in ordered:
        leaders.setdefault((spec.path, spec.budget_function), spec)
    first = {id(spec) for spec in leaders.values()}
    return [*leaders.values(), *(spec for spec in ordered if id(spec) not in first)]


def _all_pending(
    repo: Path, summary: DiffSummary, policy: Policy, seed: int | None
) -> list[_Pending]:
    use_seed = policy.properties.seed if seed is None else seed
    digest = summary.digest
    pending: list[_Pending] = []
    for path in mutable_sources(summary, policy):
        source = git.show_file(repo, summary.head_commit, path)
        if source is None:
            continue
        source = as_utf8(source)
        lines = statement_lines(
            source, changed_lines(repo, summary.merge_base, summary.head_commit, path)
        )
        pending.extend(_pending(path, source, lines, digest, use_seed))
    return pending


def plan_from_summary(
    repo: Path,
    summary: DiffSummary,
    policy: Policy,
    seed: int | None = None,
    *,
    draw: int,
    reverts: Sequence[MutantSpec] | None = None,
) -> list[MutantSpec]:
    """The mutants draw `draw` plants for an already classified diff (sources read at head): the
    operators' drawn mutants, and every revert of the diff (`revert.py`, never drawn)."""
    from lanegate.lanes.property.revert import plan_reverts

    props = policy.properties
    drawn = _select(
        _all_pending(repo, summary, policy, seed),
        props.max_mutants,
        draw,
        props.min_mutants_per_function,
    )
    if reverts is None:
        reverts = plan_reverts(repo, summary, policy, seed).specs
    return sorted([*drawn, *reverts], key=lambda s: (s.path, s.line, s.column, s.operator))


def find_candidate(
    repo: Path, summary: DiffSummary, policy: Policy, mutant: str
) -> tuple[MutantSpec | None, int]:
    """The candidate mutant with id `mutant`, whichever draw planted it (None if the diff has no
    such valid candidate), and how many candidates the diff has."""
    from lanegate.lanes.property.revert import plan_reverts

    pending = _all_pending(repo, summary, policy, None)
    reverts = plan_reverts(repo, summary, policy).specs
    found = next((p for p in pending if p.id == mutant), None)
    if found is None:
        return next((r for r in reverts if r.id == mutant), None), len(pending) + len(reverts)
    return found.resolve(), len(pending) + len(reverts)


def statement_lines(source: bytes, lines: frozenset[int]) -> frozenset[int]:
    """`lines` grown to every line of each simple statement they touch: a change on the third line
    of a statement spread over five gets the statement's mutants, wherever its operators sit."""
    try:
        tree = parse_python(source)
    except (SyntaxError, ValueError):
        return lines
    grown = set(lines)
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not hasattr(node, "body"):
            span = range(node.lineno, (node.end_lineno or node.lineno) + 1)
            if lines.intersection(span):
                grown.update(span)
    return frozenset(grown)


def plan_mutants(
    repo: Path,
    base: str,
    policy: Policy,
    seed: int | None = None,
    head: str = "HEAD",
    *,
    draw: int,
) -> list[MutantSpec]:
    """Re-derive the mutants draw `draw` of the property lane plants for `base...head`."""
    summary = classify_diff(repo, base, policy, head)
    return plan_from_summary(repo, summary, policy, seed, draw=draw)


def planned_ids(repo: Path, summary: DiffSummary, policy: Policy, draw: int) -> tuple[str, ...]:
    """The ids of the mutants draw `draw` plants, for the scorer to hold a ledger against."""
    return tuple(spec.id for spec in plan_from_summary(repo, summary, policy, draw=draw))
