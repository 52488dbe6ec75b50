"""The gate's three scopes of a lint finding (SPEC 7): what Lane B runs, strictly; what the diff adds
anywhere, strictly; and the rest of the repository, which is Lane A (reported, never a gate fail by
itself: the repository's ordinary CI may keep retries and dated freezes for known human flakes).

What Lane B runs: the caller workflows (a job `uses:` lane-b.yml, or a step uses the lanegate action)
and every local action, reusable workflow and script they run; the pytest configuration and packaging
files at the linted root (pytest reads them, `install: -e .` installs them); every conftest.py pytest
collects; and the requirements files the callers' `install:` input names, with their `-r`/`-c`
includes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path, PurePosixPath

from lanegate.model import Finding
from lanegate.workflow_lint.bounded_read import InputFileError, read_bounded
from lanegate.workflow_lint.discover import Discovered
from lanegate.workflow_lint.rule import FileKind
from lanegate.workflow_lint.yamldoc import YamlSyntaxError, YNode, parse_yaml


class Scope(StrEnum):
    """Which part of the repository a finding is in."""

    LANE_B = "lane-b"  # what Lane B runs: fails the gate
    DIFF = "diff"  # added by the diff outside what Lane B runs: fails the gate
    LANE_A = "lane-a"  # the rest: the repository's ordinary CI, reported only


GATING = frozenset({Scope.LANE_B, Scope.DIFF})
# a job calling the reusable workflow, or a step using the composite action, of lanegate
_LANE_B_WORKFLOW = re.compile(r"(^|/)\.github/workflows/lane-b\.ya?ml\s*(@|$)")
_LANEGATE_ACTION = re.compile(r"^\s*lanegate/lanegate\s*@")
_CONFIG_KINDS = frozenset(
    {
        FileKind.PYTEST_INI,
        FileKind.PYPROJECT,
        FileKind.SETUP_CFG,
        FileKind.TOX_INI,
        FileKind.SETUP_PY,
        FileKind.TOOL_TOML,
    }
)
_REQUIREMENT_OPTION = re.compile(
    r"(?:^|\s)(?:-r|-c|--requirement|--constraint)(?:\s*=\s*|\s+|(?=[^\s-]))([^\s]+)"
)
_MAX_CALLER_BYTES = 2 * 1024 * 1024
_MAX_INCLUDES = 1000  # requirements files followed through -r/-c, at most


@dataclass(frozen=True, slots=True)
class Caller:
    """A workflow that runs Lane B, and the `install:` values its Lane B jobs pass (None: computed)."""

    path: str
    installs: tuple[str | None, ...] = ()


def _runs_lane_b(root: YNode) -> tuple[bool, list[str | None]]:
    """(whether this workflow runs Lane B, the `install` inputs it gives lanegate)."""
    jobs = root.get("jobs")
    found = False
    installs: list[str | None] = []
    if jobs is None or not jobs.is_map:
        return False, installs
    for _, job in jobs.str_items():
        if not job.is_map:
            continue
        uses = job.get("uses")
        users = []
        if uses is not None and uses.is_scalar and _LANE_B_WORKFLOW.search(uses.text):
            users.append(job)
        steps = job.get("steps")
        for step in steps.items if steps is not None and steps.is_seq else ():
            step_uses = step.get("uses") if step.is_map else None
            if (
                step_uses is not None
                and step_uses.is_scalar
                and _LANEGATE_ACTION.match(step_uses.text)
            ):
                users.append(step)
        for user in users:
            found = True
            inputs = user.get("with")
            install = inputs.get("install") if inputs is not None and inputs.is_map else None
            if install is not None:
                text = install.text if install.is_scalar else None
                installs.append(None if text is None or "${{" in text else text)
    return found, installs


def find_callers(root: Path, workflows: Iterable[str]) -> list[Caller]:
    """The workflows under `root` that run Lane B (a file that cannot be read or parsed is left to
    the lint, which reports it)."""
    callers: list[Caller] = []
    for relative in workflows:
        try:
            data = read_bounded(root / relative, _MAX_CALLER_BYTES)
        except InputFileError:
            continue
        if b"lane-b" not in data and b"lanegate/lanegate" not in data:
            continue
        try:
            doc = parse_yaml(data.decode("utf-8", errors="replace"))
        except YamlSyntaxError:
            continue
        if doc.root is None or not doc.root.is_map:
            continue
        found, installs = _runs_lane_b(doc.root)
        if found:
            callers.append(Caller(relative, tuple(installs)))
    return callers


def installed_requirements(root: Path, callers: Iterable[Caller], known: Iterable[str]) -> set[str]:
    """The requirements files the callers' `pip install <install>` reads, with their -r/-c includes
    (whatever their names); every known requirements file when an `install` value is an expression
    lanegate cannot evaluate."""
    installs = [value for c in callers for value in c.installs]
    if any(value is None for value in installs):
        return set(known)
    pending = [
        (PurePosixPath("."), match.group(1))
        for value in installs
        if value is not None
        for match in _REQUIREMENT_OPTION.finditer(value)
    ]
    seen: set[str] = set()
    while pending and len(seen) < _MAX_INCLUDES:
        folder, name = pending.pop()
        relative = (folder / name).as_posix()
        resolved = (root / relative).resolve()
        try:
            relative = resolved.relative_to(root.resolve()).as_posix()
        except ValueError:
            continue
        if relative in seen:
            continue
        seen.add(relative)
        try:
            text = read_bounded(resolved, _MAX_CALLER_BYTES).decode("utf-8", errors="replace")
        except InputFileError:
            continue  # missing or unreadable: pip fails the lane's install step itself
        parent = PurePosixPath(relative).parent
        for line in text.splitlines():
            pending.extend(
                (parent, m.group(1)) for m in _REQUIREMENT_OPTION.finditer(line.split(" #")[0])
            )
    return seen


def lane_b_files(
    targets: Iterable[Discovered],
    callers: Iterable[Caller],
    requirements: Iterable[str],
    calls: Mapping[str, set[str]],
) -> frozenset[str]:
    """Every root-relative file Lane B runs or loads (see the module docstring)."""
    found: set[str] = set(requirements)
    pending = [c.path for c in callers]
    while pending:  # the callers and what they run, transitively
        relative = pending.pop()
        if relative not in found:
            found.add(relative)
            pending.extend(calls.get(relative, ()))
    for target in targets:
        top_level = "/" not in target.path
        if (target.kind in _CONFIG_KINDS and top_level) or PurePosixPath(
            target.path
        ).name == "conftest.py":
            found.add(target.path)
    return frozenset(found)


@dataclass(frozen=True, slots=True)
class GateScope:
    """What Lane B runs and what the diff added, relative to the linted root."""

    lane_b: frozenset[str]
    # changed file -> the head-side lines the diff added or changed
    added: Mapping[str, frozenset[int]] = field(default_factory=dict)
    # findings that cannot act where they are (a rerun plugin nothing activates): the diff's, or Lane A
    dormant: frozenset[Finding] = frozenset()

    def of(self, finding: Finding) -> Scope:
        """The scope of one finding: Lane B's files first, then what the diff added, else Lane A."""
        if finding.primary.path in self.lane_b and finding not in self.dormant:
            return Scope.LANE_B
        for location in (finding.primary, *finding.related):
            lines = self.added.get(location.path)
            if lines is None:
                continue
            # a finding on the whole file (it does not parse, it is too large) is the diff's when
            # the diff touched the file at all
            if location.line is None or location.line in lines or finding.rule_id in _WHOLE_FILE:
                return Scope.DIFF
        return Scope.LANE_A


_WHOLE_FILE = frozenset({"unparseable-file", "oversized-file"})
