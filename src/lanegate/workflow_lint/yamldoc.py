"""YAML with exact positions: nodes carry 1-based line/column, aliases report their own line.

One parse per file: the C parser's event stream is built into nodes in a single pass (cheaper than
`yaml.compose` followed by a walk, and an alias event carries the alias's own position, which a composed
node graph loses: there an alias is the anchored node itself). Merge keys are flattened here; a node
reached through an alias is a copy placed at the alias.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import yaml

try:  # the C loader is ~14x faster; fall back to pure Python where libyaml is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

_MERGE_TAG = "tag:yaml.org,2002:merge"
_BOOL_TAG = "tag:yaml.org,2002:bool"
_NULL_TAG = "tag:yaml.org,2002:null"
MAP, SEQ, SCALAR = "map", "seq", "scalar"
FILE_STYLE = "file"  # a scalar standing for a whole non-YAML file (a repository script)


class YamlSyntaxError(Exception):
    """The text is not YAML; carries the 1-based position of the problem when PyYAML knows it."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


_NO_PAIRS: list[tuple[YNode, YNode]] = []
_NO_ITEMS: list[YNode] = []


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
        "_index",
    )

    def __init__(self, kind: str, line: int, column: int, end_line: int) -> None:
        self.kind = kind
        # scalars share one empty list each for pairs and items: nothing ever appends to a scalar's
        self.pairs: list[tuple[YNode, YNode]] = [] if kind == MAP else _NO_PAIRS
        self.items: list[YNode] = [] if kind == SEQ else _NO_ITEMS
        self._index: dict[str, YNode] | None = None
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
        index = self._index
        if index is None:
            # built on first lookup, after the mapping is complete (rules run after parsing)
            index = (
                {k.text: v for k, v in self.pairs if k.kind == SCALAR} if self.kind == MAP else {}
            )
            self._index = index
        return index.get(key)

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
        return self.kind == SCALAR and not self.style and self.text in ("false", "False", "FALSE")

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
        if node.style == FILE_STYLE:
            return line_index + 1, column + 1
        if node.style == "|":
            first = node.line + 1
            indent = _block_indent(self.lines, first - 1, node.end_line)
            return first + line_index, indent + column + 1
        if node.end_line == node.line or (
            not node.style and line_index == 0 and node.end_line <= node.line + 1
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


MAX_NODES = 200_000  # alias expansion budget: a "billion laughs" file is a finding, not a hang


def parse_yaml(text: str) -> YamlDoc:
    """Parse one YAML document into positioned nodes, in one pass over the C parser's events.

    Raises `YamlSyntaxError` with a 1-based position for text that is not YAML, for more than one
    document, for an undefined alias, and for alias expansion beyond `MAX_NODES`.
    """
    try:
        root = _build(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        raise YamlSyntaxError(exc.problem or str(exc), line, column) from None
    except yaml.YAMLError as exc:
        first = str(exc).splitlines()[0] if str(exc) else "invalid YAML"
        raise YamlSyntaxError(first, 1, 1) from None
    return YamlDoc(root, tuple(text.splitlines()))


def _build(text: str) -> YNode | None:
    root: YNode | None = None
    # per open collection: [node, key waiting for its value, is a sequence, has a `<<` merge key]
    stack: list[list[Any]] = []
    top: list[Any] | None = None
    anchors: dict[str, YNode] = {}
    budget = [MAX_NODES]
    documents = 0
    scalar_event, alias_event = yaml.ScalarEvent, yaml.AliasEvent
    map_start, seq_start = yaml.MappingStartEvent, yaml.SequenceStartEvent
    map_end, seq_end = yaml.MappingEndEvent, yaml.SequenceEndEvent
    stream_end, document_start = yaml.StreamEndEvent, yaml.DocumentStartEvent
    # events are read as Any: the stubs make marks optional, but the parser always sets them;
    # get_event is called directly, skipping the generator yaml.parse wraps around it
    loader: Any = _Loader(text)
    get_event = loader.get_event
    try:
        while True:
            event = get_event()
            kind = type(event)
            if kind is stream_end:
                break
            opens = False
            if kind is scalar_event:
                mark = event.start_mark
                node = YNode(SCALAR, mark.line + 1, mark.column + 1, event.end_mark.line + 1)
                node.text = event.value
                if event.style:
                    node.style = event.style
                if event.tag is not None:
                    node.tag = event.tag
                if event.anchor is not None:
                    anchors[event.anchor] = node
            elif kind is map_start or kind is seq_start:
                mark = event.start_mark
                line = mark.line + 1
                node = YNode(MAP if kind is map_start else SEQ, line, mark.column + 1, line)
                if event.anchor is not None:
                    anchors[event.anchor] = node
                opens = True
            elif kind is map_end or kind is seq_end:
                entry = stack.pop()
                top = stack[-1] if stack else None
                closed: YNode = entry[0]
                closed.end_line = event.end_mark.line + 1
                if entry[3]:
                    _merge(closed)
                continue
            elif kind is alias_event:
                mark = event.start_mark
                target = anchors.get(event.anchor)
                if target is None:
                    raise YamlSyntaxError(
                        f"found undefined alias {event.anchor!r}", mark.line + 1, mark.column + 1
                    )
                node = _copy(target, mark.line + 1, mark.column + 1, budget)
            elif kind is document_start:
                documents += 1
                if documents > 1:
                    mark = event.start_mark
                    raise YamlSyntaxError(
                        "more than one YAML document in the file", mark.line + 1, mark.column + 1
                    )
                continue
            else:
                continue
            if top is None:
                root = node
            elif top[2]:
                top[0].items.append(node)
            elif top[1] is None:
                top[1] = node
            else:
                key = top[1]
                top[0].pairs.append((key, node))
                top[1] = None
                if key.text == "<<" and key.kind == SCALAR:
                    top[3] = True
            if opens:
                top = [node, None, node.kind == SEQ, False]
                stack.append(top)
    finally:
        loader.dispose()
    return root


def _is_merge_key(key: YNode) -> bool:
    return key.kind == SCALAR and key.text == "<<" and not key.style and key.tag in ("", _MERGE_TAG)


def _merge(node: YNode) -> None:
    """Flatten `<<: *anchor` merge keys; keys written in the mapping itself win."""
    if not any(_is_merge_key(k) for k, _ in node.pairs):
        return
    pairs: list[tuple[YNode, YNode]] = []
    merged: list[tuple[YNode, YNode]] = []
    for key, value in node.pairs:
        if _is_merge_key(key):
            sources = [value] if value.kind == MAP else value.items
            for source in sources:
                merged.extend(source.pairs)
        else:
            pairs.append((key, value))
    explicit = {k.text for k, _ in pairs if k.kind == SCALAR}
    node.pairs = [(k, v) for k, v in merged if k.text not in explicit] + pairs


def _copy(node: YNode, line: int, column: int, budget: list[int]) -> YNode:
    """A fresh copy of an anchored node, every part placed at the alias (iterative, budgeted)."""
    out = YNode(node.kind, line, column, line)
    out.via_alias = True
    work = [(node, out)]
    while work:
        source, target = work.pop()
        budget[0] -= 1
        if budget[0] < 0:
            raise YamlSyntaxError("alias expansion is too large", line, column)
        target.text, target.tag, target.style = source.text, source.tag, source.style
        for item in source.items:
            child = YNode(item.kind, line, column, line)
            child.via_alias = True
            target.items.append(child)
            work.append((item, child))
        for key, value in source.pairs:
            pair = []
            for part in (key, value):
                child = YNode(part.kind, line, column, line)
                child.via_alias = True
                pair.append(child)
                work.append((part, child))
            target.pairs.append((pair[0], pair[1]))
    return out
