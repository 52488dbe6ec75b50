"""Which tests cover which function, from the one traced baseline run (the plugin's `covered` lists)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True, slots=True)
class CoverageMap:
    """(resolved file, function first line) -> node ids of passing tests that called that function."""

    by_function: Mapping[tuple[str, int], frozenset[str]]
    by_file: Mapping[str, frozenset[str]]

    @classmethod
    def from_record(cls, tests: Mapping[str, Mapping[str, Any]]) -> CoverageMap:
        """Build from the baseline record; tests that did not pass are left out (they cannot kill)."""
        by_function: dict[tuple[str, int], set[str]] = {}
        by_file: dict[str, set[str]] = {}
        for node_id, entry in tests.items():
            if entry.get("outcome") != "passed":
                continue
            for item in entry.get("covered", []):
                path, _, line = str(item).rpartition(":")
                by_function.setdefault((path, int(line)), set()).add(node_id)
                by_file.setdefault(path, set()).add(node_id)
        return cls(
            {k: frozenset(v) for k, v in by_function.items()},
            {k: frozenset(v) for k, v in by_file.items()},
        )

    def tests_for(self, path: Path, function_line: int) -> frozenset[str]:
        """Tests covering the function that starts at `function_line` (0: module level, whole file)."""
        return self.tests_at(str(path.resolve()), function_line)

    def tests_at(self, resolved: str, function_line: int) -> frozenset[str]:
        """`tests_for` a path already resolved (one file's many mutants resolve it once)."""
        if function_line == 0:
            return self.by_file.get(resolved, frozenset())
        return self.by_function.get((resolved, function_line), frozenset())


def ordered(tests: Iterable[str], property_tests: frozenset[str]) -> tuple[str, ...]:
    """Oracle-checked property tests first (so a property kill is seen first under `-x`), then the rest."""
    unique = sorted(set(tests))
    return tuple(
        [t for t in unique if t in property_tests] + [t for t in unique if t not in property_tests]
    )
