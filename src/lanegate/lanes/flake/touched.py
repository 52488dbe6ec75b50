"""Which tests of one test module a change touches.

A test is touched by a changed line inside its own definition, and by a changed line of anything it
reaches by name at module level: a helper, a fixture (by its parameter's name), a constant, an
import, a helper's helpers. A change to a test class outside its test methods (a helper method,
`setup_method`) touches the class's tests; a module-level statement that binds no name (one that
runs at import: `random.seed(0)`), `pytestmark` and an autouse fixture touch every test of the module.
Lines between statements (blank lines, comments) touch nothing.

The same mapping serves the head's added or changed lines and the base's deleted ones: a deletion
leaves no line at head, so it is mapped where it happened, onto the base's copy of the module, for
the tests the head still has. A test the diff deleted whole is not among them: nothing of it remains
to replay.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Sequence

from lanegate.lanes.collection import locate, split_node_id, touched_by

_EVERY_TEST = frozenset({"pytestmark"})


def _first_line(node: ast.stmt) -> int:
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)])


def _hit(node: ast.stmt, lines: Collection[int]) -> bool:
    first, last = _first_line(node), node.end_lineno or node.lineno
    return any(first <= line <= last for line in lines)


def _used(node: ast.AST) -> set[str]:
    """The names `node` reads: names, attributes, imported names, parameters (a fixture is
    requested by its parameter's name) and string constants (`usefixtures("db")`)."""
    out: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            out.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            out.add(sub.attr)
        elif isinstance(sub, ast.alias):
            out.update(sub.name.split("."))
        elif isinstance(sub, ast.arg):
            out.add(sub.arg)
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str) and len(sub.value) < 80:
            out.update(part.strip() for part in sub.value.split(","))
    return out


def _bound(node: ast.stmt) -> set[str]:
    """The names a module-level statement binds."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {node.name}
    out: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and not isinstance(sub.ctx, ast.Load):
            out.add(sub.id)
        elif isinstance(sub, ast.alias):
            out.add(sub.asname or sub.name.split(".", 1)[0])
        elif isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.add(sub.name)
    return out


def _autouse(node: ast.stmt) -> bool:
    return any(
        isinstance(k, ast.keyword) and k.arg == "autouse"
        for d in getattr(node, "decorator_list", ())
        for k in ast.walk(d)
    )


def touched_tests(
    tree: ast.Module, node_ids: Sequence[str], lines: frozenset[int] | None
) -> frozenset[str]:
    """The tests among `node_ids` (this module's, as pytest collected them) that a change of
    `lines` of `tree` touches (None: the whole module is new)."""
    if lines is None:
        return frozenset(node_ids)
    if not lines:
        return frozenset()
    sites = {node_id: locate(tree, node_id) for node_id in node_ids}
    touched = {node_id for node_id, site in sites.items() if touched_by(site.spans, lines)}
    own = [site.spans[0] for site in sites.values() if site.node is not None and site.spans]
    outside = {line for line in lines if not any(a <= line <= b for a, b in own)}
    if not outside:
        return frozenset(touched)
    changed: set[str] = set()
    uses: dict[str, set[str]] = {}
    for stmt in tree.body:
        bound = _bound(stmt)
        for name in bound:
            uses.setdefault(name, set()).update(_used(stmt))
        if not _hit(stmt, outside):
            continue
        if isinstance(stmt, ast.ClassDef):
            touched.update(n for n in node_ids if split_node_id(n)[1][:1] == (stmt.name,))
        if not bound or bound & _EVERY_TEST or _autouse(stmt):
            return frozenset(node_ids)
        changed |= bound
    for node_id, site in sites.items():
        if node_id in touched or site.node is None:
            continue
        reached = _used(site.node)
        fresh = set(reached)
        while fresh:
            step = set().union(*(uses.get(name, set()) for name in fresh)) - reached
            reached |= step
            fresh = step
        if reached & changed:
            touched.add(node_id)
    return frozenset(touched)
