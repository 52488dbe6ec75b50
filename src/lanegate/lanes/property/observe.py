"""The one adapter over Hypothesis observability: count the test cases each property really executed.

Two switches, same rows. `callback` (default) registers an in-process observer with
`hypothesis.internal.observability.add_observability_callback` (Hypothesis >= 6.138; older versions had
the list `TESTCASE_CALLBACKS`, used as a fallback) and turns off per-case coverage collection, which is
what makes observability expensive. `files` sets `HYPOTHESIS_EXPERIMENTAL_OBSERVABILITY_NOCOVER` for the
child and reads the JSON-lines rows Hypothesis writes under `HYPOTHESIS_STORAGE_DIRECTORY/observed/`.
Relied-on range: hypothesis >= 6.100, < 7 (the `test_case` row with `status` and `property` is stable
across it; pinned in pyproject's test extra).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MODES = ("callback", "files")
FILES_ENV = {"HYPOTHESIS_EXPERIMENTAL_OBSERVABILITY_NOCOVER": "1"}


@dataclass(slots=True)
class CaseCounts:
    """Executed test cases of one property: passed, failed, and rejected by assume/filter (gave_up)."""

    passed: int = 0
    failed: int = 0
    gave_up: int = 0

    @property
    def run(self) -> int:
        """Cases that ran to a verdict (gave_up cases were discarded by the property itself)."""
        return self.passed + self.failed


def _field(observation: Any, name: str) -> Any:
    if isinstance(observation, Mapping):
        return observation.get(name)
    return getattr(observation, name, None)


def record(counts: CaseCounts, observation: Any) -> bool:
    """Add one observation row to `counts`; False when the row is not a test case."""
    if _field(observation, "type") != "test_case":
        return False
    status = _field(observation, "status")
    status = getattr(status, "value", status)
    if status == "passed":
        counts.passed += 1
    elif status == "failed":
        counts.failed += 1
    else:
        counts.gave_up += 1
    return True


def property_of(observation: Any) -> str | None:
    """The property (a pytest node id under pytest) an observation row belongs to."""
    value = _field(observation, "property")
    return value if isinstance(value, str) else None


def install_callback(callback: Callable[[Any], None]) -> Callable[[], None]:
    """Register `callback` for every observation in this process; returns the function that removes it."""
    from hypothesis.internal import observability

    # Per-case coverage is what costs 4.6x on 3.11; counting needs none of it. The module reads this
    # attribute at each test, so setting it here is enough.
    observability.OBSERVABILITY_COLLECT_COVERAGE = False
    add = getattr(observability, "add_observability_callback", None)
    remove = getattr(observability, "remove_observability_callback", None)
    if add is not None and remove is not None:
        add(callback, all_threads=False)
        return lambda: remove(callback)
    legacy: Any = observability.TESTCASE_CALLBACKS  # hypothesis < 6.138: a plain list
    legacy.append(callback)
    return lambda: legacy.remove(callback)


def read_files(storage_dir: Path) -> dict[str, CaseCounts]:
    """Counts per property from the `*_testcases.jsonl` files Hypothesis wrote under `storage_dir`."""
    out: dict[str, CaseCounts] = {}
    observed = storage_dir / "observed"
    if not observed.is_dir():
        return out
    for path in sorted(observed.glob("*_testcases.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            name = property_of(row)
            if name is None:
                continue
            record(out.setdefault(name, CaseCounts()), row)
    return out
