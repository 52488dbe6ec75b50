"""Where a mutant lives in a test process: a meta-path finder that serves the mutated source for one
file, and (inside the sandbox) the sandbox's own copy of that file on disk, so that reading the
source (`inspect.getsource`, opening or hashing the file, a child process importing it) sees the
mutant as well. The user's checkout is never rewritten: only the sandbox's private copy is.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import linecache
import os
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from types import CodeType, ModuleType


def source_bytes(source: str) -> bytes:
    """A mutant's source as the file's bytes again (the lane decodes a file's bytes as UTF-8 with
    `surrogateescape`), for `compile`: compiled from bytes, a `coding:` declaration holds, as it does
    when Python imports the file; compiled as text, a Latin-1 file's non-UTF-8 byte is an error."""
    return source.encode("utf-8", "surrogateescape")


class _MutantLoader(importlib.abc.Loader):
    """Executes the mutated source under the real file name (tracebacks point at the real lines)."""

    def __init__(self, path: Path, source: str) -> None:
        self.path = path
        self.source = source

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None

    def get_code(self, fullname: str) -> CodeType:
        return compile(source_bytes(self.source), str(self.path), "exec", dont_inherit=True)

    def exec_module(self, module: ModuleType) -> None:
        exec(self.get_code(module.__name__), module.__dict__)


class ServingFinder(importlib.abc.MetaPathFinder):
    """Asks the other finders where a module lives; when that is a Python file this finder serves
    (`loader_for` answers a loader), the module is loaded from that file by that loader, as a
    package where the file is one. The mutant, the probes and the verified base files are served
    this way."""

    def loader_for(self, fullname: str, origin: str) -> importlib.abc.Loader | None:
        """The loader for `origin` (the file the other finders found), or None: not served here."""
        raise NotImplementedError

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        spec = located_elsewhere(self, fullname, path, target)
        if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
            return None
        loader = self.loader_for(fullname, spec.origin)
        if loader is None:
            return None
        return importlib.util.spec_from_file_location(
            fullname,
            spec.origin,
            loader=loader,
            submodule_search_locations=spec.submodule_search_locations,
        )


class MutantFinder(ServingFinder):
    """Serves the mutant for the mutated file."""

    def __init__(self, path: Path, source: str) -> None:
        self.path = path.resolve()
        self.source = source
        self.served: list[str] = []

    def loader_for(self, fullname: str, origin: str) -> importlib.abc.Loader | None:
        if Path(origin).resolve() != self.path:
            return None
        self.served.append(fullname)
        return _MutantLoader(self.path, self.source)


def located_elsewhere(
    finder: object, fullname: str, path: Sequence[str] | None, target: ModuleType | None
) -> importlib.machinery.ModuleSpec | None:
    """Where the meta-path finders other than `finder` would load `fullname` from (the first one
    that knows), so that a finder serving other code for a file serves exactly that file. Two such
    finders ask each other once: a finder asked again while it is asking answers None."""
    if not hasattr(_ASKING, "keys"):
        _ASKING.keys = set()
    asking: set[tuple[int, str]] = _ASKING.keys
    key = (id(finder), fullname)
    if key in asking:
        return None
    asking.add(key)
    try:
        for other in sys.meta_path:
            if other is finder or not hasattr(other, "find_spec"):
                continue
            spec = other.find_spec(fullname, path, target)
            if spec is not None:
                return spec
        return None
    finally:
        asking.discard(key)


# (finder, module name) pairs whose `located_elsewhere` is under way, per thread
_ASKING = threading.local()


def install_mutant(path: Path, source: str) -> MutantFinder:
    """Put a finder for `path` first on sys.meta_path and forget any already-imported copy of it."""
    finder = MutantFinder(path, source)
    sys.meta_path.insert(0, finder)
    resolved = finder.path
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if file and Path(file).resolve() == resolved:
            del sys.modules[name]
    return finder


# the mutated file's modification time moves this far, so that no stale byte code of the same size
# and second is taken for it by a child process (PYTHONDONTWRITEBYTECODE keeps new ones from appearing)
MTIME_SHIFT_NS = 2_000_000_000


def write_mutant_on_disk(path: Path, source: str) -> None:
    """Put the mutated source into the (sandbox's copy of the) file, and forget cached lines of it."""
    before = os.stat(path)
    with open(path, "wb") as handle:
        handle.write(source_bytes(source))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + MTIME_SHIFT_NS))
    linecache.checkcache(str(path))
    linecache.cache.pop(str(path), None)


def restore_on_disk(path: Path, original: str, times: tuple[int, int]) -> None:
    """Put the original source and times back after a mutant's child process has ended."""
    with open(path, "wb") as handle:
        handle.write(source_bytes(original))
    os.utime(path, ns=times)
