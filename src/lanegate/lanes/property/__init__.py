"""The property lane (SPEC 3.3, 4, 5): oracle check, counted Hypothesis cases, diff-scoped mutants."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lanegate.lanes.property.plant import MutantSpec, plan_mutants
    from lanegate.lanes.property.runner import run_lane

__all__ = ["MutantSpec", "plan_mutants", "run_lane"]

# Imported lazily: every pytest process of the lane loads this package for its plugin, and the
# runner's imports (ledger schemas, jsonschema) would cost each of them about 0.3 s for nothing.
_LAZY = {
    "MutantSpec": "lanegate.lanes.property.plant",
    "plan_mutants": "lanegate.lanes.property.plant",
    "run_lane": "lanegate.lanes.property.runner",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
