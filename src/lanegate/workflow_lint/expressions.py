"""A GitHub Actions expression evaluated over known values, or `UNKNOWN` (fail closed).

Only what lets lint tell whether a reusable workflow's `continue-on-error: ${{ inputs.python ==
'3.15' }}` can be true for a given call: literals (strings, numbers, `true`, `false`, `null`),
dotted names looked up in the given values (`inputs.python`), `==`, `!=`, `!`, `&&`, `||` and
parentheses, with GitHub's rules (strings compare ignoring case, `&&`/`||` yield an operand). A
function call, an index, a comparison of different types, or a name not given is `UNKNOWN`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

Value = str | float | bool | None


class _Unknown:
    """A value lint cannot compute."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()
Result = Value | _Unknown

_TOKEN = re.compile(
    r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<num>-?\d+(?:\.\d+)?)|(?P<op>==|!=|&&|\|\||!|\(|\))"
    r"|(?P<name>[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*))"
)
_MAX_TOKENS = 200
_WHOLE = re.compile(r"^\s*\$\{\{(.*)\}\}\s*$", re.DOTALL)


def _tokens(text: str) -> list[tuple[str, str]] | None:
    out: list[tuple[str, str]] = []
    position = 0
    while position < len(text):
        if not text[position:].strip():
            break
        match = _TOKEN.match(text, position)
        if match is None or len(out) >= _MAX_TOKENS:
            return None
        kind = match.lastgroup or ""
        out.append((kind, match.group(kind)))
        position = match.end()
    return out


def truthy(value: Result) -> bool | _Unknown:
    if isinstance(value, _Unknown):
        return UNKNOWN
    return value not in (None, False, 0, "")


def _equal(left: Result, right: Result) -> bool | _Unknown:
    if isinstance(left, _Unknown) or isinstance(right, _Unknown):
        return UNKNOWN
    if isinstance(left, str) and isinstance(right, str):
        return left.casefold() == right.casefold()
    if type(left) is type(right):
        return left == right
    return UNKNOWN  # GitHub coerces to numbers: not worth guessing


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], names: Mapping[str, Value]) -> None:
        self.tokens = tokens
        self.index = 0
        self.names = names

    def peek(self) -> str:
        return self.tokens[self.index][1] if self.index < len(self.tokens) else ""

    def take(self) -> tuple[str, str]:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def either(self) -> Result:
        left = self.both()
        while self.peek() == "||":
            self.take()
            right = self.both()
            first = truthy(left)
            left = UNKNOWN if isinstance(first, _Unknown) else (left if first else right)
        return left

    def both(self) -> Result:
        left = self.compare()
        while self.peek() == "&&":
            self.take()
            right = self.compare()
            first = truthy(left)
            left = UNKNOWN if isinstance(first, _Unknown) else (right if first else left)
        return left

    def compare(self) -> Result:
        left = self.unary()
        while self.peek() in ("==", "!="):
            op = self.take()[1]
            same = _equal(left, self.unary())
            left = same if isinstance(same, _Unknown) or op == "==" else not same
        return left

    def unary(self) -> Result:
        if self.peek() == "!":
            self.take()
            value = truthy(self.unary())
            return value if isinstance(value, _Unknown) else not value
        return self.atom()

    def atom(self) -> Result:
        if self.index >= len(self.tokens):
            raise ValueError("expression ends early")
        kind, text = self.take()
        if text == "(":
            value = self.either()
            if self.peek() != ")":
                raise ValueError("unclosed parenthesis")
            self.take()
            return value
        if kind == "str":
            return text[1:-1].replace("''", "'")
        if kind == "num":
            return float(text)
        if kind == "name":
            if self.peek() == "(":
                raise ValueError("function call")
            literal = {"true": True, "false": False, "null": None}
            if text in literal:
                return literal[text]
            return self.names[text] if text in self.names else UNKNOWN
        raise ValueError(f"unexpected {text}")


def evaluate(text: str, names: Mapping[str, Value]) -> Result:
    """The value of a `${{ ... }}` expression (the whole scalar) over `names`; a scalar with no
    expression is its own text; anything lint does not model is `UNKNOWN`."""
    match = _WHOLE.match(text)
    if match is None:
        return UNKNOWN if "${{" in text else text
    tokens = _tokens(match.group(1))
    if not tokens:
        return UNKNOWN
    parser = _Parser(tokens, names)
    try:
        value = parser.either()
    except (ValueError, IndexError):
        return UNKNOWN
    return value if parser.index == len(tokens) else UNKNOWN
