"""The Rule value: an id, what it flags, the one-line fix, which file kinds it reads, and its check."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lanegate.model import Finding
    from lanegate.workflow_lint.context import FileContext


class FileKind(StrEnum):
    """What a scanned file is; rules declare the kinds they read."""

    WORKFLOW = "workflow"
    ACTION = "action"
    PYTEST_INI = "pytest.ini"
    PYPROJECT = "pyproject.toml"
    SETUP_CFG = "setup.cfg"
    TOX_INI = "tox.ini"
    PYTHON = "python"
    REQUIREMENTS = "requirements"
    SETUP_PY = "setup.py"
    CONDA_ENV = "conda environment"
    TOOL_TOML = "pixi.toml/hatch.toml"
    SCRIPT = "script"  # a shell or Python script a workflow step runs from the repository


YAML_KINDS = frozenset({FileKind.WORKFLOW, FileKind.ACTION})
SHELL_KINDS = YAML_KINDS | {FileKind.SCRIPT}  # files with shell scripts in them
INI_KINDS = frozenset({FileKind.PYTEST_INI, FileKind.SETUP_CFG, FileKind.TOX_INI})
ALL_KINDS = frozenset(FileKind)


@dataclass(frozen=True, slots=True)
class Rule:
    """One lint rule. `id` is kebab-case, equal to its module name in snake_case and its docs anchor."""

    id: str
    summary: str
    fix: str
    kinds: frozenset[FileKind]
    check: Callable[[FileContext], Iterable[Finding]]

    @property
    def help_anchor(self) -> str:
        return f"docs/lint-rules.md#{self.id}"
