"""Inside the sandbox: the changed function itself, found by its file and qualified name."""

from __future__ import annotations

import importlib
import inspect
import os
import sys
import types
from pathlib import Path
from typing import Any


class Unavailable(Exception):
    """The function cannot be called here (why, in one line)."""


class Method:
    """An instance method and its class: called with the instance's state (an encoded object,
    `encode.receiver`) in place of `self`, then the other arguments."""

    def __init__(self, owner: type, function: types.FunctionType) -> None:
        self.owner = owner
        self.function = function
        self.__signature__ = inspect.signature(function)

    def type_name(self) -> str:
        module, name = self.owner.__module__, self.owner.__qualname__
        return name if module in ("builtins", "") else f"{module}.{name}"

    def __call__(self, instance: Any, *args: Any, **kwargs: Any) -> Any:
        return self.function(instance, *args, **kwargs)


def module_name(path: Path) -> tuple[Path, str]:
    """The folder to import from and the dotted name of the module at `path`: the first folder up
    without an `__init__.py` is the root (pytest's `prepend` rule)."""
    parts = [] if path.stem == "__init__" else [path.stem]
    root = path.parent
    while (root / "__init__.py").is_file():
        parts.insert(0, root.name)
        root = root.parent
    return root, ".".join(parts)


def resolve(path: str, qualname: str) -> Any:
    """The callable `qualname` of the module at `path` (raises `Unavailable`); an instance
    method comes as a `Method`."""
    file = Path(path)
    root, name = module_name(file)
    if not name:
        raise Unavailable(f"{path} is not a module")
    if str(root) not in sys.path:
        sys.path.append(str(root))  # after what the tests' own configuration put first
    try:
        module = importlib.import_module(name)
    except BaseException as exc:  # noqa: BLE001 - head code: anything can come out of an import
        raise Unavailable(f"import {name} failed: {type(exc).__name__}") from None
    found = getattr(module, "__file__", None)
    if not isinstance(found, str) or os.path.realpath(found) != os.path.realpath(file):
        raise Unavailable(f"import {name} gives {str(found)[:200]}, not {path}")
    owner: Any = module
    parts = qualname.split(".")
    for part in parts[:-1]:
        owner = getattr(owner, part, None)
        if owner is None:
            raise Unavailable(f"{qualname}: no {part} in {name}")
    try:
        raw = inspect.getattr_static(owner, parts[-1])
    except AttributeError:
        raise Unavailable(f"no {qualname} in {name}") from None
    if isinstance(owner, type) and isinstance(raw, types.FunctionType):
        return Method(owner, raw)
    function = getattr(owner, parts[-1])
    if not callable(function):
        raise Unavailable(f"{qualname} is not callable")
    return function
