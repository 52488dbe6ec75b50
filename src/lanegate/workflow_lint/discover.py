"""Finds what `lanegate lint` reads under a root: workflows, action definitions, pytest and packaging
config, requirements files, conftest and test modules.

Directories pytest never collects are pruned (VCS and tool caches, virtualenvs, node_modules, build
output, and paths a conftest.py lists in `collect_ignore`/`collect_ignore_glob`), and Python files
pytest would not collect by the project's `testpaths`, `python_files` and `norecursedirs` are left out
unless a collected one imports them (see collection); local actions and
reusable workflows a workflow calls are linted on demand even when they sit in a pruned directory.
"""

from __future__ import annotations

import ast
import fnmatch
import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from lanegate.errors import WorkflowError
from lanegate.treewalk import walk
from lanegate.workflow_lint.bounded_parse import parse_python
from lanegate.workflow_lint.bounded_read import InputFileError, read_bounded
from lanegate.workflow_lint.collection import Collection, imported_names, load_collection
from lanegate.workflow_lint.rule import FileKind

MAX_FILES = 100_000
_PRUNED = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "__pycache__",
        ".tox",
        ".nox",
        ".venv",
        "venv",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".hypothesis",
        "site-packages",
        "build",
        "dist",
        ".eggs",
    }
)
_REQUIREMENTS = re.compile(r"^([\w.-]*[-_.])?requirements([-_.][\w.-]*)?\.(txt|in)$", re.IGNORECASE)
_CONFIG = {
    "pytest.ini": FileKind.PYTEST_INI,
    "pyproject.toml": FileKind.PYPROJECT,
    "setup.cfg": FileKind.SETUP_CFG,
    "tox.ini": FileKind.TOX_INI,
    "setup.py": FileKind.SETUP_PY,
    "pixi.toml": FileKind.TOOL_TOML,
    "hatch.toml": FileKind.TOOL_TOML,
}
# packaging config of a project: under a test-data, docs or examples folder it is a fixture or an
# example, not the project's (a linter's `tests/fixtures/<case>/pyproject.toml`, deliberately invalid)
_PROJECT_ONLY = frozenset(
    {
        FileKind.SETUP_PY,
        FileKind.TOOL_TOML,
        FileKind.PYPROJECT,
        FileKind.SETUP_CFG,
        FileKind.TOX_INI,
    }
)
_TEST_DIRS = frozenset({"tests", "test"})
_DATA_DIRS = frozenset({"tests", "test", "testing", "data", "fixtures", "examples", "docs"})
_CONDA_ENV = re.compile(
    r"^([\w.-]*[-_.])?(environment|conda)([-_.][\w.-]*)?\.ya?ml$", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class Discovered:
    """A file to lint: its path relative to the root (POSIX separators) and its kind."""

    path: str
    kind: FileKind


def kind_of(relative: str) -> FileKind | None:
    """The kind of a file from its root-relative path, or None when lint does not read it."""
    path = PurePosixPath(relative)
    name = path.name
    parts = path.parts
    if name in ("action.yml", "action.yaml"):
        return FileKind.ACTION
    if (
        name.endswith((".yml", ".yaml"))
        and len(parts) >= 3
        and parts[-3:-1] == (".github", "workflows")
    ):
        return FileKind.WORKFLOW
    if name in _CONFIG:
        kind = _CONFIG[name]
        if kind in _PROJECT_ONLY and _DATA_DIRS.intersection(parts[:-1]):
            return None  # a test-data package's setup.py is not the project's dependency file
        return kind
    if name.endswith(".py") and (
        name == "conftest.py"
        or name.startswith("test_")
        or name.endswith("_test.py")
        or _TEST_DIRS.intersection(parts[:-1])  # helpers of the tests: home-made rerun decorators
    ):
        return FileKind.PYTHON
    if _CONDA_ENV.match(name):
        return FileKind.CONDA_ENV
    if _REQUIREMENTS.match(name) or (
        len(parts) >= 2 and parts[-2] == "requirements" and name.endswith((".txt", ".in"))
    ):
        return FileKind.REQUIREMENTS
    return None


def _ignored_by_conftest(path: Path) -> list[str]:
    """`collect_ignore` and `collect_ignore_glob` patterns of a conftest.py (string literals only)."""
    try:
        tree = parse_python(read_bounded(path, 2 * 1024 * 1024).decode("utf-8", "replace"))
    except (InputFileError, SyntaxError, ValueError):
        return []
    patterns: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id in ("collect_ignore", "collect_ignore_glob")
            for t in node.targets
        ):
            patterns.extend(
                c.value
                for c in ast.walk(node.value)
                if isinstance(c, ast.Constant) and isinstance(c.value, str)
            )
    return patterns


def discover(root: Path) -> list[Discovered]:
    """Every file under `root` that lint reads, sorted by path."""
    found: list[Discovered] = []
    collection = load_collection(root)
    ignores: list[tuple[str, str]] = []  # (directory relative to root, pattern relative to it)
    for current, dirnames, filenames in walk(root):  # no recursion on the tree's depth
        relative_dir = os.path.relpath(current, root).replace(os.sep, "/")
        relative_dir = "" if relative_dir == "." else relative_dir
        if "conftest.py" in filenames:
            ignores.extend(
                (relative_dir, p) for p in _ignored_by_conftest(Path(current) / "conftest.py")
            )

        def ignored(name: str, relative_dir: str = relative_dir) -> bool:
            rel = f"{relative_dir}/{name}" if relative_dir else name
            for base, pattern in ignores:
                if base and not rel.startswith(base + "/"):
                    continue
                inner = rel[len(base) + 1 :] if base else rel
                if fnmatch.fnmatch(inner, pattern) or fnmatch.fnmatch(inner, pattern.rstrip("/")):
                    return True
            return False

        dirnames[:] = sorted(
            d
            for d in dirnames
            if d not in _PRUNED
            and not d.endswith(".egg-info")
            and (not d.startswith(".") or d == ".github")
            and not (Path(current) / d / "pyvenv.cfg").exists()
            and not ignored(d)
        )
        for name in sorted(filenames):
            rel = f"{relative_dir}/{name}" if relative_dir else name
            kind = kind_of(rel)
            if kind is None and name.endswith(".py") and collection.collects(rel):
                kind = FileKind.PYTHON  # a test module by the project's own `python_files`
            # a symlink to nothing holds no configuration: neither pytest nor GitHub can read it
            dangling = kind is not None and not os.path.exists(os.path.join(current, name))
            if kind is not None and not dangling and not ignored(name):
                found.append(Discovered(rel, kind))
                if len(found) > MAX_FILES:
                    raise WorkflowError(
                        f"{root}: more than {MAX_FILES} files to lint", hint="lint a narrower path"
                    )
    return sorted(_collected_only(root, found, collection), key=lambda d: d.path)


def _collected_only(
    root: Path, found: list[Discovered], collection: Collection
) -> list[Discovered]:
    """Drop the Python files pytest would not collect, unless a collected one imports them."""
    python = [d for d in found if d.kind is FileKind.PYTHON]
    collected = {d.path for d in python if collection.collects(d.path)}
    others = [d for d in python if d.path not in collected]
    if not others:
        return found
    texts: list[str] = []
    for relative in sorted(collected):
        try:
            texts.append(read_bounded(root / relative, 2 * 1024 * 1024).decode("utf-8", "replace"))
        except InputFileError:
            continue
    imported = imported_names(texts)
    # importing a test module runs its package's `__init__.py` first (and `from . import x` reads
    # it): the package holding collected modules is test code, whatever `python_files` says (its
    # parent packages, the library's own `pkg/__init__.py` above `pkg/tests/`, are not)
    packages = {str(PurePosixPath(c).parent) for c in collected}
    dropped = {
        d.path
        for d in others
        if PurePosixPath(d.path).stem not in imported
        and not (
            PurePosixPath(d.path).name == "__init__.py"
            and str(PurePosixPath(d.path).parent) in packages
        )
    }
    return [d for d in found if d.path not in dropped]
