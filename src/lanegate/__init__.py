"""lanegate: a fail-closed merge gate for pull requests written by coding agents."""

from lanegate._version import __version__
from lanegate.errors import LanegateError
from lanegate.model import Finding, Lane, Location, Reason, Severity, Verdict

__all__ = [
    "Finding",
    "Lane",
    "LanegateError",
    "Location",
    "Reason",
    "Severity",
    "Verdict",
    "__version__",
]
