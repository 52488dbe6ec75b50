"""An attacker's test inside the mutant worker tries to tell canaries from real mutants, and cannot:
not by the job's id or files, the worker's folder, the environment, nor by its place in the order."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

from lanegate.lanes.property.baseline import pytest_flags
from lanegate.lanes.property.canary import canary_specs_for_file, select_canaries
from lanegate.lanes.property.mutate_run import MutantJob, WorkerPool, run_mutants
from lanegate.lanes.property.plant import MutantSpec, select, specs_for_file
from lanegate.ledgers.models import MutantStatus
from lanegate.policy import load_policy
from lanegate.sandbox import open_sandbox
from tests.unit.property.test_canaries import CANARY_TARGET, DIGEST, SHAPES, _lines

SPY = "spies/test_spy.py::test_spy"
ORDER_SEED = 11


def _job(spec: MutantSpec, path: Path) -> MutantJob:
    return MutantJob(
        spec.id,
        path,
        spec.mutated_source(SHAPES).decode(),
        (SPY,),
        60.0,
        spec.function,
        spec.function_line,
        original=SHAPES.decode(),
    )


@pytest.fixture(scope="module")
def spied(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[list[dict], set[str], set[str], list[MutantJob]]:
    target = tmp_path_factory.mktemp("spy") / "canary_target"
    shutil.copytree(CANARY_TARGET, target, ignore=shutil.ignore_patterns("__pycache__"))
    real = select(specs_for_file("shapes.py", SHAPES, _lines(SHAPES), DIGEST, 0), 8, 0)
    canaries = select_canaries(
        canary_specs_for_file("shapes.py", SHAPES, _lines(SHAPES), DIGEST, 99), 4
    )
    jobs = [_job(s, target / "shapes.py") for s in (*real, *canaries)]
    sandbox = open_sandbox(target)
    pool = WorkerPool(target, 1, sandbox=sandbox)  # one worker: its order is the dispatch order
    results, problem = run_mutants(
        target,
        jobs,
        pytest_flags(load_policy(target)),
        frozenset({SPY}),
        pool=pool,
        keep_scratch=True,
        order_seed=ORDER_SEED,
    )
    assert problem is None
    assert {r.status for r in results} == {MutantStatus.SURVIVED}
    seen = [json.loads(p.read_text()) for p in sorted(pool.scratch.glob("worker-*/spy-*.json"))]
    shutil.rmtree(pool.scratch)
    assert len(seen) == len(jobs)
    return seen, {s.id for s in real}, {s.id for s in canaries}, jobs


def _kind(seen: dict, jobs: list[MutantJob], canaries: set[str]) -> str:
    """Which job the spy ran in (the test knows this only after the run, from the ledger)."""
    (job,) = [j for j in jobs if j.source == seen["on_disk"]]
    return "canary" if job.id in canaries else "real"


def test_the_spy_ran_every_mutant_and_saw_it_on_disk(spied) -> None:
    seen, real, canaries, jobs = spied
    kinds = [_kind(s, jobs, canaries) for s in seen]
    assert kinds.count("canary") == len(canaries) and kinds.count("real") == len(real)


def test_ids_and_files_name_no_mutant(spied) -> None:
    """The handle a test sees is fresh and random: never a ledger id, real or canary; no file in the
    worker's folder holds one."""
    seen, real, canaries, _ = spied
    ids = real | canaries
    handles = [s["handle"] for s in seen]
    assert all(re.fullmatch(r"m-[0-9a-f]{16}", h) for h in handles)
    assert len(set(handles)) == len(handles) and not set(handles) & ids
    for s in seen:
        for name, text in s["readable"].items():
            assert not any(i in name or i in text for i in ids), name


def test_job_shape_and_environment_are_one_for_both(spied) -> None:
    seen, _, canaries, jobs = spied
    shapes = {
        _kind(s, jobs, canaries): (
            tuple(s["mutant_keys"]),
            tuple(sorted(s["mutant_types"].items())),
        )
        for s in seen
    }
    assert shapes["canary"] == shapes["real"]
    environments = {json.dumps(s["environ"], sort_keys=True) for s in seen}
    assert len(environments) == 1


def test_the_order_tells_nothing(spied) -> None:
    """The spy counts the mutants before it: canaries sit among the real ones, and where they sit
    follows the run's secret order seed, not the plan."""
    seen, _, canaries, jobs = spied
    by_position = sorted(seen, key=lambda s: s["position"])
    kinds = [_kind(s, jobs, canaries) for s in by_position]
    assert [s["position"] for s in by_position] == list(range(len(jobs)))
    first_canary = kinds.index("canary")
    assert "real" in kinds[first_canary:], kinds  # not "the canaries come last"
    assert kinds[0] != "canary" or "canary" in kinds[1:]
    # the places canaries take over seeds: every place holds a canary under some seed and a real
    # mutant under another (a plan-order or count heuristic cannot single the real ones out)
    places: dict[int, set[bool]] = {}
    for seed in range(40):
        order = list(jobs)
        random.Random(seed).shuffle(order)
        for place, job in enumerate(order):
            places.setdefault(place, set()).add(job.id in canaries)
    assert all(v == {True, False} for v in places.values())
