"""Requirement strings of the dependency files that are not pip's: `setup.py` (the string literals of
`setup(...)` requirement keywords) and conda environment files (`dependencies:` and their `pip:` list),
each with its 1-based position. (pixi.toml and hatch.toml are read like pyproject.toml.)"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from lanegate.workflow_lint.yamldoc import YNode

_SETUP_KEYWORDS = frozenset(
    {"install_requires", "tests_require", "setup_requires", "extras_require"}
)


@dataclass(frozen=True, slots=True)
class Requirement:
    """A requirement string and where it is written."""

    text: str
    line: int
    column: int


def setup_py_requirements(module: ast.Module) -> Iterator[Requirement]:
    """String literals under the requirement keywords of any `setup(...)`-like call."""
    for node in ast.walk(module):
        if not isinstance(node, ast.Call):
            continue
        for keyword in node.keywords:
            if keyword.arg not in _SETUP_KEYWORDS:
                continue
            for const in ast.walk(keyword.value):
                if isinstance(const, ast.Constant) and isinstance(const.value, str):
                    yield Requirement(const.value, const.lineno, const.col_offset + 1)


def conda_requirements(root: YNode | None) -> Iterator[Requirement]:
    """Specs of a conda environment file: `dependencies:` items and their `pip:` lists."""
    dependencies = root.get("dependencies") if root is not None and root.is_map else None
    if dependencies is None or not dependencies.is_seq:
        return
    for item in dependencies.items:
        if item.is_scalar:
            spec = item.text.split("::", 1)[-1]  # `conda-forge::flaky`
            yield Requirement(spec, item.line, item.column)
        elif item.is_map:
            pip = item.get("pip")
            if pip is not None and pip.is_seq:
                for entry in pip.items:
                    if entry.is_scalar:
                        yield Requirement(entry.text, entry.line, entry.column)
