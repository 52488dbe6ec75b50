"""The bundled example ledgers (examples/ledgers/<set>/), generated from the samples.

`python -m tests.unit.scoring.examples --write` regenerates them; a test checks the files on disk are
what this module generates, so they never go stale.
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lanegate.ledgers.load import dump_bytes
from lanegate.ledgers.models import LintFindingRecord, MutantStatus, Outcome
from tests.unit.scoring import samples
from tests.unit.scoring.samples import replace as r

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "ledgers"


@dataclass(frozen=True)
class ExampleSet:
    """One folder: the documents it holds and the rule ids `lanegate score` must fail it with."""

    documents: dict[str, Any]
    fails_with: frozenset[str] = field(default_factory=frozenset)


def _base() -> dict[str, Any]:
    return {
        "property.json": samples.property_ledger(),
        "fixture.json": samples.fixture_ledger(),
        "flake.json": samples.flake_ledger(),
        "lint.json": samples.lint_report(),
    }


def _sets() -> dict[str, ExampleSet]:
    prop, fx, fl = samples.property_ledger(), samples.fixture_ledger(), samples.flake_ledger()
    flaky = samples.flake_test(
        "tests/test_calc.py::test_order", (Outcome.PASSED, Outcome.FAILED, Outcome.PASSED)
    )
    weak = (
        *(samples.mutant(i) for i in range(2)),
        *(samples.mutant(i, MutantStatus.SURVIVED) for i in range(2, 5)),
    )
    retry = LintFindingRecord(
        rule_id="continue-on-error",
        severity="error",
        message="step 'pytest' may fail and the job still passes",
        path=".github/workflows/ci.yml",
        line=21,
        column=9,
        fix="remove continue-on-error from the test step",
        exempted=False,
    )
    expired = samples.lease(
        root_cause_hash=None,
        leased_at=samples.CREATED.replace(month=10),
        expires_at=samples.CREATED.replace(month=11, day=1),
        pr_body_expires_at=samples.CREATED.replace(month=11, day=1),
    )
    docs = _base()
    return {
        "pass": ExampleSet(docs),
        "fail-flaky": ExampleSet(
            {**docs, "flake.json": r(fl, tests=(flaky, fl.tests[1]), deterministic=False)},
            frozenset({"flake-nondeterministic"}),
        ),
        "fail-mutants": ExampleSet(
            {**docs, "property.json": r(prop, mutants=weak, killed_mutants=2)},
            frozenset({"property-mutant-budget", "property-function-budget"}),
        ),
        "fail-fixture": ExampleSet(
            {
                **docs,
                "fixture.json": r(
                    fx,
                    lockfile=r(fx.lockfile, changed=True, head_digest=samples.digest("9")),
                    files=(
                        r(fx.files[0], status="drift", actual_digest=samples.digest("c")),
                        fx.files[1],
                    ),
                    cases=(
                        r(fx.cases[0], status="oracle_mismatch", actual_digest=samples.digest("e")),
                    ),
                ),
            },
            frozenset({"fixture-drift", "fixture-lockfile-by-agent", "fixture-oracle-mismatch"}),
        ),
        "fail-lease": ExampleSet(
            {**docs, "flake.json": r(fl, leases=(expired,))},
            frozenset({"flake-lease-expired"}),
        ),
        "fail-retry": ExampleSet(
            {**docs, "lint.json": r(samples.lint_report(), findings=(retry,))},
            frozenset({"lint-retry-construct"}),
        ),
        "fail-rerun": ExampleSet(
            {
                **docs,
                "property.json": r(prop, run_attempt=2),
                "fixture.json": r(fx, run_attempt=2),
                "flake.json": r(fl, run_attempt=2),
            },
            frozenset({"run-attempt", "run-attempt-mismatch"}),
        ),
        "fail-missing": ExampleSet(
            {k: v for k, v in docs.items() if k != "flake.json"},
            frozenset({"ledger-missing"}),
        ),
        "fail-writer": ExampleSet(
            {**docs, "property.json": r(prop, writer="patch-job")},
            frozenset({"ledger-writer"}),
        ),
    }


SETS = _sets()


def rendered() -> dict[str, dict[str, bytes]]:
    """Folder -> file name -> bytes."""
    out: dict[str, dict[str, bytes]] = {}
    for name, example in SETS.items():
        out[name] = {}
        for file_name, model in example.documents.items():
            data = dump_bytes(model)
            # enum-typed fields set from plain strings above serialize the same way
            out[name][file_name] = data
    return out


def copy_set(folder: str, into: Path) -> Path:
    """A copy of the bundled set `folder` under `into`: only the files the set holds, so whatever a
    command wrote beside them (`lanegate score --ledgers examples/ledgers/pass` writes its report
    there) never reaches a test, and no test writes into the source tree."""
    target = into / folder
    target.mkdir(parents=True)
    for name in SETS[folder].documents:
        shutil.copyfile(EXAMPLES / folder / name, target / name)
    return target


def write(root: Path = EXAMPLES) -> None:
    for folder, files in rendered().items():
        target = root / folder
        target.mkdir(parents=True, exist_ok=True)
        for stale in target.glob("*.json"):
            if stale.name not in files:
                stale.unlink()
        for file_name, data in files.items():
            (target / file_name).write_bytes(data)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python -m tests.unit.scoring.examples --write")
    write()
