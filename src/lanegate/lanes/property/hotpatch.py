"""Swap one function's code in a process that already imported the module: the fast path for a mutant.

The fork server imports the target and the test modules once; a forked child then compiles the mutated
module and gives every live function object whose code is the original function's code the mutated
code so `import m; m.f()` and `from m import f` alike run the mutant (functions are found by
qualname, first line and file among the live function objects). When that is
not possible (module-level mutant, nested function, closure shape changed, module not imported), the
caller falls back to the import hook and a fresh import of the module and its tests.
"""

from __future__ import annotations

import gc
import inspect
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import CodeType, FunctionType, ModuleType

from lanegate.lanes.property.importhook import source_bytes


def _codes(code: CodeType) -> Iterator[CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield from _codes(const)


def _find(code: CodeType, qualname: str, first_line: int) -> CodeType | None:
    for candidate in _codes(code):
        if candidate.co_qualname == qualname and candidate.co_firstlineno == first_line:
            return candidate
    return None


def loaded_module(path: Path) -> ModuleType | None:
    """The already-imported module whose file is `path`, if any."""
    wanted = os.path.realpath(path)
    name = path.name
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if (
            isinstance(file, str)
            and os.path.basename(file) == name
            and os.path.realpath(file) == wanted
        ):
            return module
    return None


def _by_attribute(module: ModuleType, qualname: str) -> FunctionType | None:
    """`C.m` -> the function object behind module.C.m (through staticmethod, classmethod, wraps)."""
    obj: object = module
    for part in qualname.split("."):
        obj = inspect.getattr_static(obj, part, None)
        if obj is None:
            return None
    for _ in range(10):
        if isinstance(obj, FunctionType):
            return obj
        inner = getattr(obj, "__func__", None) or getattr(obj, "__wrapped__", None)
        if inner is None:
            return None
        obj = inner
    return None


def swap_function_code(path: Path, source: str, qualname: str, first_line: int) -> bool:
    """Give the live function `qualname` (starting at `first_line`) of `path` its mutated code."""
    if first_line <= 0 or "<" in qualname:
        return False
    module = loaded_module(path)
    if module is None:
        return False
    code = compile(source_bytes(source), str(path), "exec", dont_inherit=True)
    new = _find(code, qualname, first_line)
    if new is None:
        return False
    found = _by_attribute(module, qualname)
    live = [found] if found is not None else []
    if not live or not _same(live[0].__code__, qualname, first_line):
        filename = os.path.realpath(path)
        live = [
            f
            for f in gc.get_objects()
            if isinstance(f, FunctionType)
            and _same(f.__code__, qualname, first_line)
            and os.path.realpath(f.__code__.co_filename) == filename
        ]
    if not live or any(f.__code__.co_freevars != new.co_freevars for f in live):
        return False
    for func in live:
        func.__code__ = new
    return True


def _same(code: CodeType, qualname: str, first_line: int) -> bool:
    return code.co_qualname == qualname and code.co_firstlineno == first_line
