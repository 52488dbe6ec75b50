"""The base's test files as the lane read them, served to the base suite's process from bytes whose
digest the lane computed before the process started.

The base suite's process runs the base's tests against the head's code, in the sandbox's private
copy of the tree, which that process may write. Head code runs as soon as a test module imports
it, so a module collected first could rewrite a base test file collected later, or leave a forged
`__pycache__` entry that pytest would load in its place, and the base suite would judge the head
with tests the head wrote. Mounting the files read-only does not hold (a folder holding a mounted
file can still be renamed and a new one made in its place), so the plugin checks instead, at the
one moment that counts: every base test file, helper beside the tests and `conftest.py` the lane
listed (`--lanegate-protect`, a JSON object of path -> SHA-256) is imported through this finder,
which reads the file once, compares the bytes with the digest, and compiles and runs exactly
those bytes (with pytest's assertion rewriting for test modules and conftest files), never a
byte-code cache. A file whose bytes differ fails to import, naming the file: its tests cannot be
collected, which the lane counts against the head.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from lanegate.lanes.property.importhook import ServingFinder

__all__ = ["ProtectedFinder", "install_protected", "read_digests"]


class _VerifiedLoader(importlib.abc.Loader):
    """Runs the module from the one read of its file whose digest matched."""

    def __init__(self, origin: str, digest: str, config: Any) -> None:
        self.origin = origin
        self.digest = digest
        self.config = config

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        with open(self.origin, "rb") as handle:
            data = handle.read()
        if hashlib.sha256(data).hexdigest() != self.digest:
            raise ImportError(
                f"{self.origin}: not the base's file: it changed on disk while the base's tests ran"
            )
        tree = ast.parse(data, filename=self.origin)
        if self.config is not None and _rewritten(self.origin):
            from _pytest.assertion.rewrite import rewrite_asserts

            rewrite_asserts(tree, data, self.origin, self.config)
        code = compile(tree, self.origin, "exec", dont_inherit=True)
        exec(code, module.__dict__)  # the base's own test module, verified above


def _rewritten(path: str) -> bool:
    """Whether pytest rewrites the asserts of this file by default (test modules, conftest)."""
    name = os.path.basename(path)
    return name == "conftest.py" or name.startswith("test_") or name.endswith("_test.py")


class ProtectedFinder(ServingFinder):
    """Serves every protected file from its verified bytes."""

    def __init__(self, digests: Mapping[str, str], config: Any) -> None:
        self.digests = dict(digests)
        self.config = config

    def loader_for(self, fullname: str, origin: str) -> importlib.abc.Loader | None:
        digest = self.digests.get(os.path.realpath(origin))
        return None if digest is None else _VerifiedLoader(origin, digest, self.config)


def read_digests(listing: Path, root: Path) -> dict[str, str]:
    """The real path of each listed file (relative to `root`) -> its expected SHA-256."""
    data = json.loads(listing.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise ValueError(f"{listing}: expected a JSON object of path -> digest")
    return {os.path.realpath(root / path): digest for path, digest in data.items()}


def install_protected(listing: Path, root: Path, config: Any) -> ProtectedFinder:
    """Serve the files `listing` names from verified bytes from now on, and forget any copy of
    them already imported (none is, before the first conftest loads)."""
    finder = ProtectedFinder(read_digests(listing, root), config)
    sys.meta_path.insert(0, finder)
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if isinstance(file, str) and os.path.realpath(file) in finder.digests:
            del sys.modules[name]
    return finder
