"""The flake lane (SPEC 3.4): new and changed tests replayed under varied pins; dated leases.

`run_lane` is imported lazily: every replay's pytest process imports this package for its plugin,
and must not pay for the lane's own imports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lanegate.lanes.flake.runner import run_lane

__all__ = ["run_lane"]


def __getattr__(name: str) -> Any:
    if name == "run_lane":
        from lanegate.lanes.flake.runner import run_lane

        return run_lane
    raise AttributeError(name)
