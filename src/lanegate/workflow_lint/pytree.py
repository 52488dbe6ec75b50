"""One walk of a parsed Python module: every node in source order with the extent of its subtree, so
the rules read a subtree as a slice of one list instead of walking the tree again for each question."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

# fields that never hold a node (or hold only the shared `Load()`/`Store()` singletons): not walked
_NOT_NODES = frozenset(
    {
        "ctx",
        "id",
        "attr",
        "arg",
        "name",
        "lineno",
        "col_offset",
        "end_lineno",
        "end_col_offset",
        "type_comment",
        "kind",
        "level",
        "module",
        "is_async",
        "conversion",
    }
)
_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(cls: type) -> tuple[str, ...]:
    found = _FIELDS.get(cls)
    if found is None:
        fields = [f for f in getattr(cls, "_fields", ()) if f not in _NOT_NODES]
        found = _FIELDS[cls] = tuple(reversed(fields))
    return found


class TooDeepTree(ValueError):
    """A tree nested deeper than the walk's limit."""


class PyTree:
    """A module's nodes in pre-order (a node, then its children's subtrees in field order) without
    the expression-context singletons; `end[i]` is where node i's subtree stops, so the subtree of
    any node, or of a run of sibling statements, is one slice. Built by one walk without recursion;
    a tree deeper than `limit` levels raises TooDeepTree."""

    __slots__ = ("module", "nodes", "end", "_pos", "_made_here")

    def __init__(self, module: ast.Module, limit: int) -> None:
        self.module = module
        nodes: list[ast.AST] = []
        end: list[int] = []
        # a node, or the index of a node whose subtree is done; the nodes entered and not yet done
        # are the ancestors of the next one popped, so their count is its depth
        stack: list[ast.AST | int] = [module]
        depth = 0
        node_type, is_node, cached = ast.AST, isinstance, _FIELDS
        while stack:
            top = stack.pop()
            if isinstance(top, int):
                end[top] = len(nodes)
                depth -= 1
                continue
            depth += 1
            if depth > limit:
                raise TooDeepTree(f"nested more than {limit} levels deep")
            stack.append(len(nodes))
            nodes.append(top)
            end.append(0)
            cls = type(top)
            fields = cached.get(cls)
            if fields is None:
                fields = _fields(cls)
            # children pushed last field first, each list backwards: popped in source order
            for name in fields:
                value = getattr(top, name, None)
                if type(value) is list:
                    stack.extend(v for v in reversed(value) if is_node(v, node_type))
                elif isinstance(value, ast.AST):
                    stack.append(value)
        self.nodes = nodes
        self.end = end
        self._pos = {id(node): index for index, node in enumerate(nodes)}
        self._made_here: frozenset[str] | None = None

    def made_here(self) -> frozenset[str]:
        """The class names the tests themselves make: defined in this module, or imported from
        the tests' own modules (a relative import, `conftest`, a `tests`/`test` package)."""
        if self._made_here is None:
            names: set[str] = set()
            for node in self.nodes:
                if isinstance(node, ast.ClassDef):
                    names.add(node.name)
                elif isinstance(node, ast.ImportFrom) and (
                    node.level > 0
                    or (node.module or "").split(".")[0] in ("conftest", "tests", "test")
                ):
                    names.update(alias.asname or alias.name for alias in node.names)
            self._made_here = frozenset(names)
        return self._made_here

    def index(self, node: ast.AST) -> int:
        """Where `node` stands in `nodes` (-1: not part of this module's tree)."""
        return self._pos.get(id(node), -1)

    def contains(self, node: ast.AST, index: int) -> bool:
        """Whether the node at `index` is `node` or lies under it."""
        start = self._pos.get(id(node), -1)
        return start >= 0 and start <= index < self.end[start]

    def walk(self, node: ast.AST) -> list[ast.AST]:
        """`node` and everything under it (what `ast.walk` yields, in source order)."""
        start = self._pos.get(id(node))
        if start is None:
            return list(ast.walk(node))  # not part of this module's tree
        return self.nodes[start : self.end[start]]

    def walk_all(self, nodes: Iterable[ast.AST | None]) -> Iterator[ast.AST]:
        """Everything under each of `nodes`."""
        for node in nodes:
            if node is not None:
                yield from self.walk(node)

    def children(self, node: ast.AST) -> Iterator[ast.AST]:
        """The direct children of `node` (what `ast.iter_child_nodes` yields, less contexts)."""
        start = self._pos.get(id(node))
        if start is None:
            yield from ast.iter_child_nodes(node)
            return
        index, stop, nodes, end = start + 1, self.end[start], self.nodes, self.end
        while index < stop:
            yield nodes[index]
            index = end[index]

    def own(self, statements: Iterable[ast.AST], scopes: tuple[type, ...]) -> Iterator[ast.AST]:
        """Every node of `statements`, not descending into nodes of the `scopes` types (those are
        yielded, not entered)."""
        nodes, end = self.nodes, self.end
        for statement in statements:
            start = self._pos.get(id(statement))
            if start is None:
                yield from _own_slow(statement, scopes)
                continue
            index, stop = start, end[start]
            while index < stop:
                node = nodes[index]
                yield node
                index = end[index] if isinstance(node, scopes) else index + 1


def _own_slow(statement: ast.AST, scopes: tuple[type, ...]) -> Iterator[ast.AST]:
    stack = [statement]
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, scopes):
            stack.extend(ast.iter_child_nodes(node))
