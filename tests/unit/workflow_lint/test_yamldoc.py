"""YAML positions: aliases at their own line, merge keys, block scalars, hostile input."""

from __future__ import annotations

import pytest

from lanegate.workflow_lint.yamldoc import YamlSyntaxError, parse_yaml


def test_alias_copies_sit_at_the_alias() -> None:
    doc = parse_yaml("a: &x\n  k: [1, 2]\nb:\n  - *x\n")
    assert doc.root is not None
    original = doc.root.get("a")
    copy = doc.root.get("b").items[0]  # type: ignore[union-attr]
    assert (original.line, original.column) == (1, 4)  # type: ignore[union-attr]
    assert {(n.line, n.column) for n in copy.walk()} == {(4, 5)}
    assert [n.text for n in copy.get("k").items] == ["1", "2"]  # type: ignore[union-attr]


def test_merge_keys_flatten_and_explicit_keys_win() -> None:
    doc = parse_yaml("base: &b {x: 1, y: 2}\nuse:\n  <<: *b\n  y: 3\n")
    use = doc.root.get("use")  # type: ignore[union-attr]
    assert [(k.text, v.text) for k, v in use.pairs] == [("x", "1"), ("y", "3")]  # type: ignore[union-attr]
    assert use.get("x").line == 3  # type: ignore[union-attr]


def test_literal_block_lines_map_one_to_one() -> None:
    text = "run: |\n  echo a\n\n    pytest || true\n"
    doc = parse_yaml(text)
    run = doc.root.get("run")  # type: ignore[union-attr]
    assert run.text.splitlines()[2] == "  pytest || true"  # type: ignore[union-attr]
    assert doc.position_in_scalar(run, 2, 12, "true") == (4, 15)  # type: ignore[arg-type]


def test_quoted_single_line_scalar_offsets_by_the_quote() -> None:
    doc = parse_yaml('run: "pytest || true"\n')
    run = doc.root.get("run")  # type: ignore[union-attr]
    assert doc.position_in_scalar(run, 0, 10, "true") == (1, 17)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("a: [1\n", "expected", 2),
        ("a: 1\n---\nb: 2\n", "more than one YAML document", 2),
        ("a: *nope\n", "undefined alias", 1),
    ],
)
def test_bad_yaml_raises_with_a_position(text: str, message: str, line: int) -> None:
    with pytest.raises(YamlSyntaxError, match=message) as caught:
        parse_yaml(text)
    assert caught.value.line == line


def test_alias_expansion_bomb_is_refused() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    with pytest.raises(YamlSyntaxError, match="alias expansion is too large"):
        parse_yaml("\n".join(lines) + "\n")


def test_deep_nesting_is_bounded_not_a_recursion_error() -> None:
    doc = parse_yaml("a: " + "[" * 500 + "]" * 500 + "\n")
    assert doc.root is not None
    assert sum(1 for _ in doc.root.walk()) == 502
    with pytest.raises(YamlSyntaxError):
        parse_yaml("a: " + "[" * 50000 + "]" * 50000 + "\n")
