"""Properties of `score` over valid but varied evidence: the report is schema-valid and consistent,
and an independent reading of SPEC 5's table never sees a pass the scorer should not give."""

from __future__ import annotations

import json
import math
from datetime import timedelta

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from lanegate.ledgers.load import dump_bytes, validate_json
from lanegate.ledgers.models import (
    LEASE_CLASSES,
    AuthorKind,
    CaseStatus,
    FileStatus,
    KillKind,
    MutantStatus,
    Outcome,
)
from lanegate.model import Lane
from lanegate.scoring import RULES, score
from tests.unit.scoring import samples
from tests.unit.scoring.samples import replace as r
from tests.unit.scoring.scenario import Scenario

PROP, FX, FL = samples.property_ledger(), samples.fixture_ledger(), samples.flake_ledger()


@st.composite
def property_ledgers(draw: st.DrawFn) -> object:
    n = draw(st.integers(0, 8))
    statuses = draw(st.lists(st.sampled_from(list(MutantStatus)), min_size=n, max_size=n))
    mutants = []
    for i, status in enumerate(statuses):
        m = samples.mutant(i, status)
        if status is MutantStatus.KILLED and draw(st.booleans()):
            m = r(m, kill_kind=KillKind.UNIT)
        mutants.append(m)
    killed = sum(
        1 for m in mutants if m.status is MutantStatus.KILLED and m.kill_kind is KillKind.PROPERTY
    )
    runs = draw(st.lists(st.tuples(st.integers(0, 50), st.integers(0, 3)), min_size=0, max_size=3))
    props = tuple(
        r(PROP.properties[0], node_id=f"t.py::p{i}", cases_run=a, cases_failed=min(a, b))
        for i, (a, b) in enumerate(runs)
    )
    honest = draw(st.booleans())
    return r(
        PROP,
        mutants=tuple(mutants),
        mutants_planted=n if honest else draw(st.integers(0, 9)),
        killed_mutants=killed if honest else draw(st.integers(0, 9)),
        mutant_budget=math.ceil(0.6 * n) if honest else draw(st.integers(0, 9)),
        properties=props,
        cases_run=sum(p.cases_run for p in props),
        cases_failed=sum(p.cases_failed for p in props),
    )


@st.composite
def fixture_ledgers(draw: st.DrawFn) -> object:
    statuses = draw(st.lists(st.sampled_from(list(CaseStatus)), max_size=3))
    cases = tuple(
        r(
            FX.cases[0],
            id=f"c{i}",
            status=s,
            actual_digest=FX.cases[0].expected_digest
            if s is CaseStatus.MATCH
            else samples.digest("f"),
        )
        for i, s in enumerate(statuses)
    )
    file_statuses = draw(st.lists(st.sampled_from(list(FileStatus)), max_size=3))
    files = tuple(
        r(
            FX.files[0],
            path=f"tests/fixtures/f{i}",
            status=s,
            actual_digest=None if s is FileStatus.MISSING else samples.digest("a"),
            locked_digest=None
            if s is FileStatus.UNLOCKED
            else (samples.digest("a") if s is FileStatus.MATCH else samples.digest("b")),
        )
        for i, s in enumerate(file_statuses)
    )
    changed = draw(st.booleans())
    lock = r(
        FX.lockfile,
        changed=changed,
        head_digest=samples.digest("2") if changed else FX.lockfile.base_digest,
    )
    return r(FX, cases=cases, files=files, lockfile=lock)


@st.composite
def flake_ledgers(draw: st.DrawFn) -> object:
    outcome_lists = draw(
        st.lists(st.lists(st.sampled_from(list(Outcome)), min_size=1, max_size=4), max_size=3)
    )
    tests = tuple(
        samples.flake_test(f"tests/test_io.py::test_{i}", tuple(o), touched=draw(st.booleans()))
        for i, o in enumerate(outcome_lists)
    )
    leases = tuple(
        samples.lease(
            test_id=f"tests/test_io.py::test_{i}",
            lease_class=draw(st.sampled_from([*LEASE_CLASSES, "cosmic"])),
            expires_at=samples.NOW + timedelta(days=draw(st.integers(-30, 30)) or 1),
            pr_body_expires_at=None,
            root_cause_hash=draw(st.sampled_from([None, "abcdef1"])),
            reruns_used=draw(st.integers(0, 3)),
            touched_by_diff=draw(st.booleans()),
        )
        for i in range(draw(st.integers(0, 2)))
    )
    leases = tuple(
        r(x, pr_body_expires_at=x.expires_at if draw(st.booleans()) else None) for x in leases
    )
    return r(FL, tests=tests, leases=leases, deterministic=all(t.deterministic for t in tests))


def _spec_says_fail(s: Scenario) -> bool:
    """An independent, deliberately simple reading of SPEC 5 (a subset: what must never pass)."""
    p, f, k = s.property, s.fixture, s.flake
    if p.cases_failed > 0 or p.cases_run == 0 or p.killed_mutants < p.mutant_budget:
        return True
    if p.mutant_budget == 0 and p.mutants:
        return True
    if any(
        c.status is not CaseStatus.MATCH or c.expected_digest != c.actual_digest for c in f.cases
    ):
        return True
    if not f.cases and not f.no_fixtures:
        return True
    if any(
        x.status in (FileStatus.DRIFT, FileStatus.MISSING, FileStatus.UNLOCKED) for x in f.files
    ):
        return True
    if f.lockfile.changed and s.authorship is AuthorKind.AGENT:
        return True
    for lease in k.leases:
        if lease.lease_class not in LEASE_CLASSES or lease.reruns_used > lease.max_reruns:
            return True
        if lease.expires_at <= s.now and lease.root_cause_hash is None:
            return True
        if lease.touched_by_diff and s.authorship is AuthorKind.AGENT:
            return True
        if lease.pr_body_expires_at != lease.expires_at:
            return True
    for t in k.tests:
        outcomes = {x.outcome for x in t.replays}
        if outcomes & {Outcome.MISSING, Outcome.TIMEOUT, Outcome.ERROR} or len(t.replays) < 3:
            return True
        if outcomes == {Outcome.FAILED}:
            return True
        if len(outcomes) > 1 and not any(x.test_id == t.node_id for x in k.leases):
            return True  # a disagreement no lease covers
        if len(outcomes) > 1 and t.touched_by_diff and s.authorship is AuthorKind.AGENT:
            return True  # Lane B honours no lease on a test the agent touched
    return False


@settings(
    max_examples=150,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    prop=property_ledgers(),
    fixture=fixture_ledgers(),
    flake=flake_ledgers(),
    authorship=st.sampled_from(list(AuthorKind)),
)
def test_report_is_consistent_and_never_passes_what_the_spec_fails(
    prop: object, fixture: object, flake: object, authorship: AuthorKind
) -> None:
    human = authorship is AuthorKind.HUMAN
    scenario = Scenario().but(
        property=prop,
        fixture=r(fixture, authorship=authorship),  # type: ignore[type-var]
        flake=r(flake, authorship=authorship),  # type: ignore[type-var]
        authorship=authorship,
        diff=None if human else Scenario().diff,
        pr_body=None,
    )
    report = score(scenario.inputs())
    event(f"verdict {report.verdict}")
    validate_json(json.loads(dump_bytes(report)), "score-report", "score-report.json")
    assert (report.verdict == "pass") == (not report.fails)
    assert all(f.severity == "error" for f in report.fails)
    assert all(w.severity != "error" for w in report.warns)
    assert {x.rule_id for x in (*report.fails, *report.warns)} <= set(RULES)
    for lane in report.lanes:
        assert lane.fails == sum(1 for f in report.fails if f.lane == lane.lane)
        assert (lane.verdict == "fail") == (lane.fails > 0)
    assert [d.name for d in report.ledgers][:3] == ["property.json", "fixture.json", "flake.json"]
    if _spec_says_fail(scenario):
        assert report.verdict == "fail"
    if report.verdict == "pass":
        assert {x.lane for x in report.lanes if x.verdict == "fail"} == set()
        assert Lane.PROPERTY.value in {x.lane for x in report.lanes}
