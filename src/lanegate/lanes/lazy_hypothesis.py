"""Hypothesis in a lane's test process only when a test uses it.

Importing Hypothesis costs a test process about 0.1-0.2 CPU s, paid in vain by every run whose
tests never use it, and a lane starts many short test processes. The lane plugins therefore set it
up (profile, seed, case counter, database) through `when_imported`, which calls back at once when
the module is loaded and otherwise right after its first import finishes, before the statement that
imported it goes on (`@given` captures the default settings as a test module is imported, so any
later would be too late). `skip_idle_summary` keeps Hypothesis's own pytest plugin from importing it
at the very end only to find that it has nothing to report.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

HYPOTHESIS_PLUGIN = "_hypothesis_pytestplugin"  # the module its `pytest11` entry point names

Callback = Callable[[ModuleType], None]


class _ThenCall(importlib.abc.Loader):
    """Runs the module's real loader, then the callback."""

    def __init__(self, inner: importlib.abc.Loader, callback: Callback) -> None:
        self.inner = inner
        self.callback = callback

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Any:
        return self.inner.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.inner.exec_module(module)
        self.callback(module)


class _OnFirstImport(importlib.abc.MetaPathFinder):
    """First on `sys.meta_path` until the module is looked for: then it wraps the loader the
    finders after it give, and takes itself off."""

    def __init__(self, name: str, callback: Callback) -> None:
        self.name = name
        self.callback = callback

    def find_spec(
        self, fullname: str, path: Any = None, target: Any = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec  # a loader we cannot wrap: the caller's own fallback applies
        spec.loader = _ThenCall(spec.loader, self.callback)
        return spec


def when_imported(name: str, callback: Callback) -> None:
    """Call `callback(module)` now if top-level module `name` is loaded, else after its first import.

    A module still being imported counts as loaded: the callback must cope with a partial module (a
    caller that needs it whole also calls again later, e.g. before each test)."""
    module = sys.modules.get(name)
    if module is not None:
        callback(module)
    else:
        sys.meta_path.insert(0, _OnFirstImport(name, callback))


def skip_idle_summary(pluginmanager: Any) -> bool:
    """At session end, unregister Hypothesis's pytest plugin when no test imported Hypothesis.

    Its terminal summary imports Hypothesis whatever happened (6.155 reads the observability
    module's list of written files), about 0.1 s at every test process's exit. Without an import
    there is nothing for it to say: no statistics, no failing examples, no observations. True when
    it was taken off."""
    if "hypothesis" in sys.modules:
        return False
    for plugin in list(pluginmanager.get_plugins()):
        if getattr(plugin, "__name__", None) == HYPOTHESIS_PLUGIN:
            pluginmanager.unregister(plugin)
            return True
    return False
