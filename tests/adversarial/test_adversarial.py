"""Every hostile diff under cases/ fails the gate end to end (and every honest control passes),
with no traceback, nothing touched outside the repository and no process left behind (SPEC 9).

Each case is one real `lanegate run`. They run two at a time (each case's process marker is made
unique, so survivors are told apart), except the class that attacks the machine itself (resource
exhaustion), which runs alone so that it cannot slow a neighbour into a false verdict. Escapes are
paired: each case has its own home, victim folder and marker, and an escape that reached its
neighbour would be a finding in both.
"""

from __future__ import annotations

import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.adversarial.harness import CASES, Case, Outcome, load_cases, run_case

ALL = load_cases()
SUITE_FILE = Path(__file__).with_name("suite.txt")
SUITE_NAMES = [
    line.strip()
    for line in SUITE_FILE.read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]
SUITE = [case for case in ALL if case.name in set(SUITE_NAMES)]
ALONE = frozenset({"resource"})
PAIRED = 2


def _run_all(cases: list[Case], root: Path) -> dict[str, Outcome]:
    outcomes: dict[str, Outcome] = {}

    progress = root / "progress.tsv"  # one line per finished case, to follow a long run

    def one(index: int, case: Case) -> None:
        where = root / f"case-{index:04d}"
        where.mkdir()
        started = time.monotonic()
        outcome = run_case(case, where, tag=f"REDTEAM{index:04d}x")
        outcomes[case.name] = outcome
        with progress.open("a", encoding="utf-8") as log:
            log.write(
                f"{case.name}\t{outcome.exit_code}\t{time.monotonic() - started:.1f}s\t"
                f"{','.join(outcome.fails)}\t{'; '.join(outcome.problems)}\n"
            )

    alone = [c for c in cases if c.klass in ALONE]
    paired = [c for c in cases if c.klass not in ALONE]
    for index, case in enumerate(alone):
        one(index, case)
    with ThreadPoolExecutor(max_workers=PAIRED) as pool:
        for future in [pool.submit(one, len(alone) + i, case) for i, case in enumerate(paired)]:
            future.result()
    return outcomes


@pytest.fixture(scope="session")
def outcomes(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """Run every selected case once, before the first check (so selected cases run in parallel)."""
    selected = [
        item.callspec.params["case"]
        for item in request.session.items
        if hasattr(item, "callspec") and isinstance(item.callspec.params.get("case"), Case)
    ]
    root = tmp_path_factory.mktemp("adversarial")
    return _run_all(selected, root)


def test_the_suite_is_large_enough_and_covers_every_class() -> None:
    assert len(SUITE) == len(SUITE_NAMES), sorted(set(SUITE_NAMES) - {c.name for c in ALL})
    kinds = Counter(case.expect for case in SUITE)
    assert kinds["fail"] >= 50, kinds
    assert kinds["pass"] >= 10, kinds
    assert {case.klass for case in SUITE} == {case.klass for case in ALL}
    # the corpus itself (run whole by run_corpus) keeps issue 11's floor
    whole = Counter(case.expect for case in ALL)
    assert whole["fail"] >= 60 and whole["pass"] >= 10, whole


@pytest.mark.parametrize("case", SUITE, ids=[case.name for case in SUITE])
def test_case(case: Case, outcomes: dict[str, Outcome]) -> None:
    outcome = outcomes[case.name]
    assert not outcome.problems, (
        f"{case.name} ({case.why}): {'; '.join(outcome.problems)}\n--- lanegate output ---\n"
        + outcome.output
    )


def test_cases_folder_is_the_one_loaded() -> None:
    assert CASES.is_dir() and all(case.folder.is_relative_to(CASES) for case in ALL)
