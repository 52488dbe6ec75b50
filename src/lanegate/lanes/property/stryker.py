"""The mutant list as a mutation-testing-elements report (Stryker's schema), for existing HTML viewers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lanegate.ledgers.models import KillKind, Mutant, MutantStatus

SCHEMA_VERSION = "1"
THRESHOLDS = {"high": 80, "low": 60}

_STATUS = {
    MutantStatus.KILLED: "Killed",
    MutantStatus.SURVIVED: "Survived",
    MutantStatus.TIMEOUT: "Timeout",
    # Stryker has no memory status; a child stopped at the cap is the same kind of verdict
    MutantStatus.MEMORY: "Timeout",
    MutantStatus.NO_TESTS: "NoCoverage",
    MutantStatus.ERROR: "RuntimeError",
}


def _end(mutant: Mutant) -> dict[str, int]:
    lines = mutant.original.split("\n")
    if len(lines) == 1:
        return {"line": mutant.line, "column": mutant.column + 1 + len(mutant.original)}
    return {"line": mutant.line + len(lines) - 1, "column": len(lines[-1]) + 1}


def report(
    mutants: Sequence[Mutant], sources: Mapping[str, str], project_root: str
) -> dict[str, Any]:
    """The report document; `sources` maps each mutated path to its (head) source text."""
    files: dict[str, Any] = {}
    for path in sorted(sources):
        files[path] = {"language": "python", "source": sources[path], "mutants": []}
    for mutant in mutants:
        entry: dict[str, Any] = {
            "id": mutant.id,
            "mutatorName": mutant.operator,
            "replacement": mutant.replacement,
            "location": {
                "start": {"line": mutant.line, "column": mutant.column + 1},
                "end": _end(mutant),
            },
            "status": _STATUS[mutant.status],
            "duration": round(mutant.seconds * 1000),
        }
        if mutant.killed_by is not None:
            entry["killedBy"] = [mutant.killed_by]
        if mutant.kill_kind is KillKind.UNIT:
            entry["statusReason"] = "killed by a unit test: not counted toward the property budget"
        elif mutant.status in (MutantStatus.TIMEOUT, MutantStatus.MEMORY):
            what = "timed out" if mutant.status is MutantStatus.TIMEOUT else "passed the memory cap"
            entry["statusReason"] = (
                f"{what}: counted as detected (a property test ran; the control was well inside "
                "the limit)"
                if mutant.detected
                else f"{what}: not counted as detected"
            )
        files.setdefault(mutant.path, {"language": "python", "source": "", "mutants": []})[
            "mutants"
        ].append(entry)
    return {
        "$schema": "https://git.io/mutation-testing-schema",
        "schemaVersion": SCHEMA_VERSION,
        "thresholds": dict(THRESHOLDS),
        "projectRoot": project_root,
        "files": files,
    }
