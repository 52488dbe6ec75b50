"""The oracle functions a lane test process holds from before any project code runs, and the test
modules whose oracle names no longer are them.

A base test decides a head's fate by calling an oracle (`round_trip(encode, decode, value)`), so code
under test that runs first in the same process (a module the test imports before it imports the
oracle) could put a wrapper in the oracle's place: one that calls the real oracle on an input
trimmed so the head's bug never shows (red-team pass 7). The introspection scan names such
rebinding in the diff's code; this guard checks what the process actually holds. The plugin takes
the oracle module's functions when it is configured (`lanegate.oracles`, imported then), and after
collection and at the session's end asks, for every collected test module, whether
- the oracle module still holds those functions, and
- each name the test module imported from it (`from lanegate.oracles import round_trip as rt`, read
  from the module's own source) is still the function it names.
A test module with a problem has every one of its tests reported as an error.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterable
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Any

from lanegate import pysource

ORACLE_MODULE = "lanegate.oracles"
# a test module is read for its imports only when its source names the oracle module
_NAMED = ORACLE_MODULE.rsplit(".", 1)[-1].encode()


class OracleGuard:
    """The oracle module's public functions as first imported (see the module docstring)."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module
        self.originals: dict[str, FunctionType] = {
            name: value
            for name, value in vars(module).items()
            if isinstance(value, FunctionType)
            and not name.startswith("_")
            and value.__module__ == module.__name__
        }
        # test module file -> its oracle imports, read once (after collection: the source the
        # module was loaded from; the session's end asks again of the same modules)
        self._bindings: dict[str, list[tuple[str, str]]] = {}

    def problems(self, modules: Iterable[ModuleType]) -> dict[str, str]:
        """The file of each test module with a problem -> what it is (empty: none)."""
        held = self._module_problem()
        found: dict[str, str] = {}
        for module in modules:
            path = getattr(module, "__file__", None)
            if not isinstance(path, str):
                continue
            problem = held or self._imports_problem(module, Path(path))
            if problem:
                found[path] = problem
        return found

    def _module_problem(self) -> str:
        for name, original in self.originals.items():
            if vars(self.module).get(name) is not original:
                return f"{ORACLE_MODULE}.{name} was replaced in this test process"
        return ""

    def _imports_problem(self, module: ModuleType, path: Path) -> str:
        bindings = self._bindings.get(str(path))
        if bindings is None:
            bindings = self._bindings[str(path)] = _oracle_bindings(path)
        namespace = vars(module)
        for local, name in bindings:
            original = self.originals.get(name)
            value: Any = namespace.get(local, original)
            if original is not None and value is not original:
                where = _origin(value)
                return (
                    f"{local} (imported from {ORACLE_MODULE}.{name}) is not the oracle when the "
                    f"tests run: it was replaced{where}"
                )
        return ""


def _oracle_bindings(path: Path) -> list[tuple[str, str]]:
    """(local name, oracle function name) of every `from lanegate.oracles import ...` in a file."""
    try:
        data = path.read_bytes()
        if _NAMED not in data:
            return []
        tree = pysource.parse(data, str(path))
    except (OSError, SyntaxError, ValueError):
        return []
    out: list[tuple[str, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == ORACLE_MODULE and not node.level:
            out.extend((alias.asname or alias.name, alias.name) for alias in node.names)
    return out


def _origin(value: Any) -> str:
    """` by code in FILE`, when the replacement tells where it was defined."""
    try:
        source = inspect.getsourcefile(value)
    except TypeError:
        return ""
    return f" by code in {source}" if source else ""
