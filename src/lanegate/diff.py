"""Diff classification (SPEC 3.1): what `base...head` added, modified, renamed and deleted, and what
role each path plays for the gate (test, fixture, lockfile, leases, workflow, policy, test config,
dependencies, shadowing).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import re
import sys
from dataclasses import dataclass, replace
from enum import StrEnum
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath

from lanegate import git
from lanegate.errors import GitError
from lanegate.policy import Policy


class Change(StrEnum):
    """How a path changed between the merge base and head."""

    ADDED = "added"
    MODIFIED = "modified"
    RENAMED = "renamed"
    DELETED = "deleted"


class Role(StrEnum):
    """What a path is to the gate. A path may have several roles (conftest.py: test and test_config)."""

    TEST = "test"
    FIXTURE = "fixture"
    LOCKFILE = "lockfile"
    LEASES = "leases"
    WORKFLOW = "workflow"
    POLICY = "policy"
    TEST_CONFIG = "test_config"
    DEPENDENCIES = "dependencies"
    SHADOWING = "shadowing"
    SOURCE = "source"
    OTHER = "other"


GATE_INPUT_ROLES = frozenset(
    {
        Role.WORKFLOW,
        Role.POLICY,
        Role.LOCKFILE,
        Role.LEASES,
        Role.TEST_CONFIG,
        Role.DEPENDENCIES,
        Role.SHADOWING,
    }
)
# Every file pytest (9) may read as configuration or plugins, packaging metadata that declares entry
# points, and files the interpreter itself runs at start-up: at any depth (pytest picks its rootdir
# and ini-file from the arguments' common ancestor upwards), so a nested one is a gate input too.
TEST_CONFIG_FILES = frozenset(
    {
        "pytest.toml",
        ".pytest.toml",
        "pytest.ini",
        ".pytest.ini",
        "setup.cfg",
        "tox.ini",
        "pyproject.toml",
        "conftest.py",
        "setup.py",
        "sitecustomize.py",
        "usercustomize.py",
        ".gitattributes",
    }
)
# What decides the distributions installed beside the tests (the action's `install:` input names them,
# e.g. `-r requirements/test.txt`): a package the diff adds runs in every test process, so it is a
# gate input like a plugin declared in configuration.
DEPENDENCY_FILE_NAMES = frozenset(
    {
        "Pipfile",
        "Pipfile.lock",
        "poetry.lock",
        "pdm.lock",
        "uv.lock",
        "pylock.toml",
        "environment.yml",
    }
)
_DEPENDENCY_FILE = re.compile(
    r"(?:[\w.-]*(?:requirements|constraints)[\w.-]*\.(?:txt|in)|pylock\.[\w.-]+\.toml)",
    re.IGNORECASE,
)
_DEPENDENCY_DIRS = frozenset({"requirements", "constraints"})
# What a workflow step runs to produce test evidence: scripts (lint follows them, issue 15), task
# runners' files; a retry moved one file away from the YAML is still the gate's own machinery.
CI_SCRIPT_NAMES = frozenset({"Makefile", "makefile", "GNUmakefile", "noxfile.py", "justfile"})
CI_SCRIPT_SUFFIXES = (".sh", ".bash", ".ps1", ".bat", ".cmd")
_PLUGIN_DECLARATION = re.compile(rb"^\s*pytest_plugins\s*[:=]", re.MULTILINE)
_MAX_SCAN_BYTES = 1_000_000
_HUNK = re.compile(rb"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", re.MULTILINE)
_BASE_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class ChangedFile:
    """One changed path; `old_path` is set for renames; `binary` when git sees no text lines;
    `deletes_only` when the change only deletes lines of a text file (it adds none)."""

    path: str
    change: Change
    roles: frozenset[Role]
    old_path: str | None = None
    binary: bool = False
    deletes_only: bool = False

    @property
    def is_gate_input(self) -> bool:
        """True when changing this file changes how the gate judges (it needs a human)."""
        return bool(self.roles & GATE_INPUT_ROLES)


@dataclass(frozen=True, slots=True)
class DiffSummary:
    """The classified diff of `base...head`."""

    base_ref: str
    base_commit: str
    merge_base: str
    head_commit: str
    files: tuple[ChangedFile, ...]

    def with_role(self, role: Role, *, include_deleted: bool = False) -> tuple[ChangedFile, ...]:
        """The changed files that have `role`, deleted ones left out unless asked."""
        return tuple(
            f
            for f in self.files
            if role in f.roles and (include_deleted or f.change is not Change.DELETED)
        )

    @property
    def digest(self) -> str:
        """A stable digest of what changed (used to derive mutant ids)."""
        h = hashlib.sha256()
        h.update(f"{self.merge_base}..{self.head_commit}\n".encode())
        for f in self.files:
            h.update(f"{f.change}\0{f.old_path or ''}\0{f.path}\n".encode())
        return "sha256:" + h.hexdigest()


def is_test_file(path: str) -> bool:
    """pytest's default discovery: `test_*.py`, `*_test.py`, plus `conftest.py`."""
    name = PurePosixPath(path).name
    return name == "conftest.py" or (
        name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))
    )


def _under(path: str, folder: str) -> bool:
    folder = folder.strip("/")
    return folder in ("", ".") or path == folder or path.startswith(folder + "/")


def _declares_dependencies(path: str) -> bool:
    """A requirements, constraints or lock file (any depth), or a `.txt`/`.in` under a folder named
    `requirements` or `constraints`."""
    pure = PurePosixPath(path)
    if pure.name in DEPENDENCY_FILE_NAMES or _DEPENDENCY_FILE.fullmatch(pure.name):
        return True
    return pure.suffix in (".txt", ".in") and any(
        part.lower() in _DEPENDENCY_DIRS for part in pure.parts[:-1]
    )


def classify_path(path: str, policy: Policy) -> frozenset[Role]:
    """The roles of one repo-relative POSIX path under `policy`."""
    roles: set[Role] = set()
    name = PurePosixPath(path).name
    if is_test_file(path):
        roles.add(Role.TEST)
    if name in TEST_CONFIG_FILES or name.endswith(".pth"):
        roles.add(Role.TEST_CONFIG)
    if _declares_dependencies(path):
        roles.add(Role.DEPENDENCIES)
    if path == policy.fixtures.lockfile.strip("/"):
        roles.add(Role.LOCKFILE)
    elif _under(path, policy.fixtures.dir) and policy.fixtures.dir.strip("/") not in ("", "."):
        roles.add(Role.FIXTURE)
    if path == policy.flake.leases_file.strip("/"):
        roles.add(Role.LEASES)
    if (
        fnmatchcase(path, ".github/workflows/*.yml")
        or fnmatchcase(path, ".github/workflows/*.yaml")
        or name in ("action.yml", "action.yaml")
        or name in CI_SCRIPT_NAMES
        or name.endswith(CI_SCRIPT_SUFFIXES)
    ):
        roles.add(Role.WORKFLOW)
    if path in ("lanegate.toml", "pyproject.toml", ".pre-commit-config.yaml"):
        roles.add(Role.POLICY)
    if path == policy.properties.module.strip("/"):
        roles.add(Role.POLICY)
    if not roles:
        roles.add(Role.SOURCE if name.endswith(".py") else Role.OTHER)
    return frozenset(roles)


_STATUS = {
    "A": Change.ADDED,
    "M": Change.MODIFIED,
    "D": Change.DELETED,
    "R": Change.RENAMED,
    "C": Change.ADDED,
    "T": Change.MODIFIED,
}


def _decode(raw: bytes) -> str:
    """A path of the diff; one that is not UTF-8 cannot be named in a ledger, so the diff is refused
    with one line (never a crash further down, SPEC 9)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        shown = raw.decode("utf-8", "backslashreplace")
        raise GitError(
            f"the diff changes a path that is not UTF-8: {shown!r}",
            hint="rename it: lanegate's ledgers name every changed file, in UTF-8",
        ) from None


def classify_diff(repo: Path, base: str, policy: Policy, head: str = "HEAD") -> DiffSummary:
    """Classify `base...head` (from the merge base, like a pull request's diff)."""
    base_commit = git.resolve_commit(repo, base)
    head_commit = git.resolve_commit(repo, head)
    mb = git.merge_base(repo, base_commit, head_commit)
    common = ("--no-ext-diff", "--no-textconv", "-M", "-z", mb, head_commit)
    status = git.run_git(repo, "diff", "--name-status", *common).split(b"\0")
    numstat = git.run_git(repo, "diff", "--numstat", *common).split(b"\0")
    binary, trimmed = _numstat_paths(numstat)
    files: list[ChangedFile] = []
    i = 0
    while i < len(status) and status[i]:
        code = _decode(status[i])
        kind = _STATUS.get(code[:1])
        if kind is None:
            raise GitError(f"unexpected git status {code!r} in {base}...{head}")
        if code[:1] in ("R", "C"):
            old, new = _decode(status[i + 1]), _decode(status[i + 2])
            i += 3
        else:
            old, new = None, _decode(status[i + 1])
            i += 2
        old_path = old if kind is Change.RENAMED else None
        roles = classify_path(new, policy)
        if Role.TEST in roles and kind is not Change.DELETED and _declares_plugins(repo / new):
            roles = roles | {Role.TEST_CONFIG}
        files.append(
            ChangedFile(
                path=new,
                change=kind,
                roles=roles,
                old_path=old_path,
                binary=new in binary,
                deletes_only=new in trimmed and kind is Change.MODIFIED,
            )
        )
    files = _mark_shadowing(repo, mb, files)
    files.sort(key=lambda f: f.path)
    return DiffSummary(base, base_commit, mb, head_commit, tuple(files))


_BYTE_CODE_SUFFIXES = (".pyc", ".pyo")
_EXTENSION_SUFFIXES = (".so", ".pyd")


def _module_key(path: str) -> str | None:
    """The import name a file provides, as `folder/name` (`pkg/x/__init__.py` and `pkg/x.py` and
    `pkg/x.cpython-311-x86_64-linux-gnu.so` all give `pkg/x`); None for what no import finds."""
    pure = PurePosixPath(path)
    if pure.name == "__init__.py":
        return str(pure.parent)
    if pure.suffix == ".py":
        return str(pure.with_suffix(""))
    if pure.suffix in _EXTENSION_SUFFIXES:
        return str(pure.parent / pure.name.split(".", 1)[0])
    return None


# folders a repository keeps at its top under names some installed distribution may also use
_NOT_MODULES = frozenset({"tests", "test", "conftest", "docs", "examples", "scripts", "setup"})


def _top_level(key: str) -> str | None:
    """The name a module at the repository's top (or under `src/`) is imported by: `hypothesis`
    for `hypothesis/__init__.py`, `json` for `src/json.py`; None deeper down."""
    parts = key.split("/")
    if parts[:1] == ["src"]:
        parts = parts[1:]
    name = parts[0] if len(parts) == 1 else None
    return None if name in _NOT_MODULES else name


@functools.cache
def _installed_names() -> frozenset[str]:
    """The standard library's module names and every installed distribution's top-level names:
    a module of the tree with one of them comes first on `sys.path` wherever the tree's top does
    (pytest's `pythonpath`, its rootdir import mode), ahead of the real one."""
    names = set(sys.stdlib_module_names) | set(sys.builtin_module_names)
    try:
        names |= set(importlib.metadata.packages_distributions())
    except Exception:  # noqa: BLE001 - broken metadata of some distribution: the stdlib names stay
        pass
    return frozenset(names)


def _mark_shadowing(repo: Path, merge_base: str, files: list[ChangedFile]) -> list[ChangedFile]:
    """Give role `shadowing` (a gate input) to committed byte code anywhere, to an added file
    that another import of the same name finds first (`tests/oracles/__init__.py` beside the
    base's `tests/oracles.py`, an extension module beside a `.py`), and to an added top-level
    module named like the standard library's or an installed one (`hypothesis/__init__.py`,
    red-team pass 9: it stood in for Hypothesis in the base suite's process): what the trusted
    copy of a base module restores, or the diff's changed lines show, would not be what the tests
    import."""
    added = {f.path for f in files if f.change in (Change.ADDED, Change.RENAMED)}
    if not added:
        return files
    base_keys: dict[str, set[str]] = {}
    listing = git.file_names(repo, merge_base)
    for raw in listing.split(b"\0"):
        if raw:
            path = raw.decode("utf-8", "surrogateescape")
            key = _module_key(path)
            if key is not None:
                base_keys.setdefault(key, set()).add(path)
    gone = {f.path for f in files if f.change is Change.DELETED} | {
        f.old_path for f in files if f.old_path
    }
    out = []
    for f in files:
        key = _module_key(f.path) if f.path in added else None
        pure = PurePosixPath(f.path)
        byte_code = pure.suffix in _BYTE_CODE_SUFFIXES or "__pycache__" in pure.parts
        shadows = key is not None and bool(base_keys.get(key, set()) - {f.path} - gone)
        top = None if key is None else _top_level(key)
        shadows = shadows or (top is not None and top in _installed_names())
        if f.change is not Change.DELETED and (byte_code or shadows):
            f = replace(f, roles=f.roles | {Role.SHADOWING})
        out.append(f)
    return out


def _declares_plugins(path: Path) -> bool:
    """A test module that sets `pytest_plugins` chooses which plugins load: a gate input."""
    try:
        with open(path, "rb") as handle:
            return bool(_PLUGIN_DECLARATION.search(handle.read(_MAX_SCAN_BYTES)))
    except OSError:
        return False


def _numstat_paths(numstat: list[bytes]) -> tuple[set[str], set[str]]:
    """Paths whose numstat is `-\t-` (git sees binary content), and paths whose change adds no
    line and deletes some. Renames span three fields."""
    out: set[str] = set()
    trimmed: set[str] = set()
    i = 0
    while i < len(numstat) and numstat[i]:
        head = numstat[i]
        parts = head.split(b"\t", 2)
        if len(parts) == 3 and parts[2] == b"":
            path = _decode(numstat[i + 2])
            i += 3
        else:
            path = _decode(parts[2]) if len(parts) == 3 else ""
            i += 1
        if parts[0] == b"-" and parts[1] == b"-":
            out.add(path)
        elif parts[0] == b"0" and len(parts) == 3 and parts[1] not in (b"0", b"-"):
            trimmed.add(path)
    return out, trimmed


def changed_lines(
    repo: Path, merge_base_commit: str, head_commit: str, path: str
) -> frozenset[int]:
    """Line numbers on the head side of `path` that the diff added or changed (between two full
    commit ids the answer is asked of git once per process: the lane's steps each need it)."""
    if git.is_full_id(merge_base_commit) and git.is_full_id(head_commit):
        return _changed_lines_between(str(repo), merge_base_commit, head_commit, path)
    return _changed_lines(repo, merge_base_commit, head_commit, path)


@functools.lru_cache(maxsize=4096)
def _changed_lines_between(
    repo: str, merge_base_commit: str, head_commit: str, path: str
) -> frozenset[int]:
    return _changed_lines(Path(repo), merge_base_commit, head_commit, path)


def _changed_lines(
    repo: Path, merge_base_commit: str, head_commit: str, path: str
) -> frozenset[int]:
    return _hunk_lines(git.zero_context_diff(repo, merge_base_commit, head_commit, path), _HUNK)


def removed_lines(
    repo: Path, merge_base_commit: str, head_commit: str, path: str
) -> frozenset[int]:
    """Line numbers on the base side of `path` that the diff deleted or changed: a change that
    only deletes lines has none on the head side (`changed_lines`), yet it changes the code that
    held them."""
    out = git.zero_context_diff(repo, merge_base_commit, head_commit, path)
    return _hunk_lines(out, _BASE_HUNK)


def _hunk_lines(out: bytes, hunk: re.Pattern[bytes]) -> frozenset[int]:
    lines: set[int] = set()
    for match in hunk.finditer(out):
        start = int(match.group(1))
        count = int(match.group(2)) if match.group(2) is not None else 1
        lines.update(range(start, start + count))
    return frozenset(lines)
