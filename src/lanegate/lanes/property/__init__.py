"""The property lane (SPEC 3.3, 4, 5): oracle check, counted Hypothesis cases, diff-scoped mutants."""

from __future__ import annotations

from lanegate.lanes.property.plant import MutantSpec, plan_mutants
from lanegate.lanes.property.runner import run_lane

__all__ = ["MutantSpec", "plan_mutants", "run_lane"]
