"""YAML with exact positions: nodes carry 1-based line/column, aliases report their own line.

One parse per file: `yaml.compose` with the C loader builds the node graph; merge keys are flattened
here; a node reached through an alias is copied with the alias's own position, which the composed graph
does not keep (an alias node is the anchored node itself), so it is read from the event stream, and only
for files that use aliases.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import yaml

try:  # the C loader is ~14x faster; fall back to pure Python where libyaml is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

_MERGE_TAG = "tag:yaml.org,2002:merge"
_BOOL_TAG = "tag:yaml.org,2002:bool"
_NULL_TAG = "tag:yaml.org,2002:null"
MAP, SEQ, SCALAR = "map", "seq", "scalar"


class YamlSyntaxError(Exception):
    """The text is not YAML; carries the 1-based position of the problem when PyYAML knows it."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


class YNode:
    """One YAML node: a mapping (pairs), a sequence (items) or a scalar (text), with its position."""

    __slots__ = (
        "kind",
        "pairs",
        "items",
        "text",
        "tag",
        "style",
        "line",
        "column",
        "end_line",
        "via_alias",
    )

    def __init__(self, kind: str, line: int, column: int, end_line: int) -> None:
        self.kind = kind
        self.pairs: list[tuple[YNode, YNode]] = []
        self.items: list[YNode] = []
        self.text = ""
        self.tag = ""
        self.style: str | None = None
        self.line = line
        self.column = column
        self.end_line = end_line
        self.via_alias = False

    # --- reading -----------------------------------------------------------------------------
    @property
    def is_map(self) -> bool:
        return self.kind == MAP

    @property
    def is_seq(self) -> bool:
        return self.kind == SEQ

    @property
    def is_scalar(self) -> bool:
        return self.kind == SCALAR

    def get(self, key: str) -> YNode | None:
        """The value of `key` in a mapping (the last one when a key repeats), else None."""
        found = None
        if self.kind == MAP:
            for k, v in self.pairs:
                if k.kind == SCALAR and k.text == key:
                    found = v
        return found

    def key_node(self, key: str) -> YNode | None:
        """The key node itself, for reporting where a key is written."""
        found = None
        if self.kind == MAP:
            for k, _ in self.pairs:
                if k.kind == SCALAR and k.text == key:
                    found = k
        return found

    def str_items(self) -> Iterator[tuple[str, YNode]]:
        """(key text, value) pairs of a mapping whose keys are scalars."""
        if self.kind == MAP:
            for k, v in self.pairs:
                if k.kind == SCALAR:
                    yield k.text, v

    def scalar_text(self) -> str | None:
        return self.text if self.kind == SCALAR else None

    def is_literal_false(self) -> bool:
        """A plain `false` (YAML 1.2 spelling): the only value that does not forgive a failure."""
        return (
            self.kind == SCALAR and self.style is None and self.text in ("false", "False", "FALSE")
        )

    def walk(self) -> Iterator[YNode]:
        """This node and every node under it, in document order (iterative: deep input is safe)."""
        stack: list[YNode] = [self]
        while stack:
            node = stack.pop()
            yield node
            if node.kind == MAP:
                for k, v in reversed(node.pairs):
                    stack.append(v)
                    stack.append(k)
            elif node.kind == SEQ:
                stack.extend(reversed(node.items))

    def scalars(self) -> Iterator[YNode]:
        """Every scalar value under this node (mapping keys left out)."""
        stack: list[YNode] = [self]
        while stack:
            node = stack.pop()
            if node.kind == SCALAR:
                yield node
            elif node.kind == MAP:
                stack.extend(v for _, v in reversed(node.pairs))
            else:
                stack.extend(reversed(node.items))


@dataclass(frozen=True, slots=True)
class YamlDoc:
    """A parsed YAML file: its root node (None for an empty file) and its source lines."""

    root: YNode | None
    lines: tuple[str, ...]

    def position_in_scalar(
        self, node: YNode, line_index: int, column: int, token: str
    ) -> tuple[int, int]:
        """Map a (line, column) inside a scalar's value to the 1-based position in the file.

        Literal blocks (`|`) map line for line; single-line scalars map by column; folded and multi-line
        flow scalars are searched for the token in their own source lines. A value reached through an
        alias reports the alias.
        """
        if node.via_alias:
            return node.line, node.column
        if node.style == "|":
            first = node.line + 1
            indent = _block_indent(self.lines, first - 1, node.end_line)
            return first + line_index, indent + column + 1
        if node.end_line == node.line or (
            node.style is None and line_index == 0 and node.end_line <= node.line + 1
        ):
            quote = 1 if node.style in ('"', "'") else 0
            if line_index == 0:
                return node.line, node.column + quote + column
        return self._search(node, token)

    def _search(self, node: YNode, token: str) -> tuple[int, int]:
        if token:
            for number in range(node.line, min(node.end_line, len(self.lines)) + 1):
                text = self.lines[number - 1]
                start = node.column - 1 if number == node.line else 0
                found = text.find(token, start)
                if found >= 0:
                    return number, found + 1
        return node.line, node.column


def _block_indent(lines: tuple[str, ...], first_index: int, end_line: int) -> int:
    for index in range(first_index, min(end_line, len(lines))):
        text = lines[index]
        if text.strip():
            return len(text) - len(text.lstrip(" "))
    return 0


def parse_yaml(text: str) -> YamlDoc:
    """Parse one YAML document (the first, as GitHub does) into positioned nodes.

    Raises `YamlSyntaxError` with a 1-based position for text that is not YAML.
    """
    try:
        composed = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        raise YamlSyntaxError(exc.problem or str(exc), line, column) from None
    except yaml.YAMLError as exc:
        raise YamlSyntaxError(
            str(exc).splitlines()[0] if str(exc) else "invalid YAML", 1, 1
        ) from None
    except RecursionError:
        raise YamlSyntaxError("YAML nests too deep", 1, 1) from None
    lines = tuple(text.splitlines())
    if composed is None:
        return YamlDoc(None, lines)
    builder = _Builder()
    try:
        root = builder.build(composed)
    except RecursionError:
        raise YamlSyntaxError("YAML nests too deep", 1, 1) from None
    if builder.alias_copies:
        _place_aliases(text, builder)
    return YamlDoc(root, lines)


class _Builder:
    """Turns composed PyYAML nodes into YNodes, counting visits in document order."""

    def __init__(self) -> None:
        self.seen: set[int] = set()
        self.visits = 0
        self.alias_copies: list[tuple[int, YNode]] = []

    def build(self, node: yaml.Node) -> YNode:
        visit = self.visits
        self.visits += 1
        if id(node) in self.seen:
            copy = _copy(node)
            self.alias_copies.append((visit, copy))
            return copy
        self.seen.add(id(node))
        start, end = node.start_mark, node.end_mark
        if isinstance(node, yaml.ScalarNode):
            out = YNode(SCALAR, start.line + 1, start.column + 1, end.line + 1)
            out.text = node.value
            out.tag = node.tag
            out.style = node.style
            return out
        if isinstance(node, yaml.SequenceNode):
            out = YNode(SEQ, start.line + 1, start.column + 1, end.line + 1)
            out.items = [self.build(item) for item in node.value]
            return out
        out = YNode(MAP, start.line + 1, start.column + 1, end.line + 1)
        pairs: list[tuple[YNode, YNode]] = []
        merged: list[tuple[YNode, YNode]] = []
        for key, value in node.value:
            key_node = self.build(key)
            value_node = self.build(value)
            if key.tag == _MERGE_TAG:
                sources = [value_node] if value_node.kind == MAP else value_node.items
                for source in sources:
                    merged.extend(source.pairs)
            else:
                pairs.append((key_node, value_node))
        if merged:
            explicit = {k.text for k, _ in pairs if k.kind == SCALAR}
            pairs = [(k, v) for k, v in merged if k.text not in explicit] + pairs
        out.pairs = pairs
        return out


def _copy(node: yaml.Node) -> YNode:
    """A fresh YNode tree for an aliased node (positions are set later to the alias's own)."""
    if isinstance(node, yaml.ScalarNode):
        out = YNode(SCALAR, 0, 0, 0)
        out.text, out.tag, out.style = node.value, node.tag, node.style
    elif isinstance(node, yaml.SequenceNode):
        out = YNode(SEQ, 0, 0, 0)
        out.items = [_copy(item) for item in node.value]
    else:
        out = YNode(MAP, 0, 0, 0)
        pairs: list[tuple[YNode, YNode]] = []
        merged: list[tuple[YNode, YNode]] = []
        for key, value in node.value:
            value_node = _copy(value)
            if key.tag == _MERGE_TAG:
                sources = [value_node] if value_node.kind == MAP else value_node.items
                for source in sources:
                    merged.extend(source.pairs)
            else:
                pairs.append((_copy(key), value_node))
        explicit = {k.text for k, _ in pairs if k.kind == SCALAR}
        out.pairs = [(k, v) for k, v in merged if k.text not in explicit] + pairs
    out.via_alias = True
    return out


def _place_aliases(text: str, builder: _Builder) -> None:
    """Give every alias copy the position of its `*alias` token, read from the event stream."""
    wanted = dict(builder.alias_copies)
    visit = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(
            event,
            yaml.AliasEvent | yaml.ScalarEvent | yaml.SequenceStartEvent | yaml.MappingStartEvent,
        ):
            copy = wanted.get(visit)
            if copy is not None:
                mark = event.start_mark
                if mark is None:
                    continue
                for node in copy.walk():
                    node.line = node.end_line = mark.line + 1
                    node.column = mark.column + 1
            visit += 1
        elif isinstance(event, yaml.DocumentEndEvent):
            break
