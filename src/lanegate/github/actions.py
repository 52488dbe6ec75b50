"""The Actions runtime through actions-toolkit: inputs, outputs, annotations, and the job summary.

This is the only module that imports actions-toolkit. Two of its gaps are closed: its `set_output`
falls back to the deprecated `::set-output` command when GITHUB_OUTPUT is unset (`outputs.set_output`,
which needs no toolkit, refuses that inside Actions), and it has no job summary, which is appended to GITHUB_STEP_SUMMARY directly, within GitHub's 1 MiB cap.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Mapping
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from actions_toolkit import core

from lanegate.errors import GitHubError, UsageError
from lanegate.github.limits import STEP_SUMMARY_BYTES, truncate_utf8
from lanegate.github.outputs import in_actions, set_output

__all__ = [
    "Annotation",
    "annotate",
    "append_summary",
    "get_input",
    "in_actions",
    "render_annotation",
    "set_output",
]

Level = Literal["error", "warning", "notice"]


def get_input(name: str, *, required: bool = False) -> str:
    """An action input (INPUT_<NAME>, hyphens kept), trimmed; a missing required one is a UsageError."""
    value = core.get_input(name)
    if required and not value:
        raise UsageError(f"input {name!r} is required and was not given")
    return str(value)


@dataclass(frozen=True, slots=True)
class Annotation:
    """One workflow-command annotation; GitHub shows at most 10 errors and 10 warnings per step."""

    level: Level
    message: str
    title: str
    path: str | None = None
    line: int | None = None


def render_annotation(annotation: Annotation) -> str:
    """The `::error title=..,file=..,line=..::message` line the toolkit prints, as a string."""
    if not annotation.title:
        raise ValueError("annotations always carry a title (the toolkit prints empty properties)")
    emit = {"error": core.error, "warning": core.warning, "notice": core.notice}[annotation.level]
    properties: dict[str, str | int] = {"title": annotation.title}
    if annotation.path:
        properties["file"] = annotation.path
        if annotation.line:
            properties["start_line"] = annotation.line
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        emit(annotation.message, **properties)
    return buffer.getvalue()


def annotate(annotation: Annotation) -> None:
    """Print one annotation command on stdout, where the runner reads it."""
    sys.stdout.write(render_annotation(annotation))
    sys.stdout.flush()


def append_summary(markdown: str, environ: Mapping[str, str] | None = None) -> bool:
    """Append Markdown to GITHUB_STEP_SUMMARY, keeping the step's whole summary under 1 MiB (a longer
    text is cut with a visible notice). Returns False when there is no summary file (outside Actions)."""
    env = os.environ if environ is None else environ
    path = env.get("GITHUB_STEP_SUMMARY", "")
    if not path:
        if in_actions(env):
            raise GitHubError("GITHUB_STEP_SUMMARY is not set inside GitHub Actions")
        return False
    target = Path(path)
    used = target.stat().st_size if target.exists() else 0
    room = STEP_SUMMARY_BYTES - used
    if room <= 200:  # not even room for the truncation notice: say so on stderr, lose nothing else
        print(f"lanegate: job summary full ({used} bytes); summary not appended", file=sys.stderr)
        return False
    text = markdown if markdown.endswith("\n") else markdown + "\n"
    with target.open("a", encoding="utf-8") as handle:
        handle.write(truncate_utf8(text, room))
    return True
