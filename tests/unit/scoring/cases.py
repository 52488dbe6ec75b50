"""For every decision-table row: scenarios that trip it and scenarios that pass it (near misses)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime

from lanegate.diff import Change, Role
from lanegate.errors import ShardError
from lanegate.introspection import Introspection
from lanegate.ledgers.models import (
    AuthorKind,
    BaseRecheck,
    BaseTestChange,
    BaseTestRun,
    BehaviourDifference,
    CaseStatus,
    ChangeEvidence,
    CollectError,
    FileStatus,
    InputSource,
    KillKind,
    LintFindingRecord,
    MutantStatus,
    OracleFinding,
    Outcome,
    PrivilegeCondition,
    SandboxRecord,
    UnmutatedLine,
)
from lanegate.model import Lane
from lanegate.policy import FixtureCase, FixturePolicy, LanePolicy, Policy, PropertyPolicy
from lanegate.scoring.evidence import ShardProblem
from lanegate.sharding.ledger_file import ShardLedger, shard_from_bytes
from lanegate.sharding.merge import merge_lane
from lanegate.sharding.plan import LanePlan, lane_digest
from lanegate.sharding.slices import Item, ShardSpec
from lanegate.source_encoding import EncodingDeclaration
from tests.unit.scoring import samples
from tests.unit.scoring.samples import replace as r
from tests.unit.scoring.scenario import DEFAULT_FILES, Scenario, changed, diff


def _shard_problems() -> dict[str, tuple[ShardProblem, ...]]:
    """Each shard rule's problems as the real merge (or shard file parser) reports them."""
    items = tuple(Item(m.id, 1.0) for m in PROP.mutants)
    plan = LanePlan(
        "property", 2, items, lane_digest("property", 2, items, samples.BASE, samples.HEAD, "d", 0)
    )

    def shard(k: int, **changes: object) -> ShardLedger:
        ids = set(plan.slices()[k - 1])
        mutants = tuple(m for m in PROP.mutants if m.id in ids)
        ledger = r(PROP, mutants=mutants, mutants_planted=len(mutants))
        return r(ShardLedger("property", ShardSpec(k, 2), plan.digest, ledger, f"s{k}"), **changes)

    one, two = shard(1), shard(2)
    stolen = r(two, ledger=r(two.ledger, mutants=(*two.ledger.mutants, one.ledger.mutants[0])))
    cases = {
        "shard-missing": [one],
        "shard-duplicate": [one, one, two],
        "shard-extra": [one, two, shard(1, spec=ShardSpec(1, 3))],
        "shard-slice": [one, stolen],
        "shard-plan-mismatch": [one, two, shard(2, plan_digest=samples.digest("f"))],
        "shard-attempt": [one, two, shard(2, ledger=r(two.ledger, run_attempt=2))],
        "shard-disagree": [one, shard(2, ledger=r(two.ledger, cases_failed=1))],
    }
    out: dict[str, tuple[ShardProblem, ...]] = {}
    for rule, shards in cases.items():
        if rule in ("shard-plan-mismatch", "shard-attempt"):  # the good shard 2 is there too
            shards = [s for n, s in enumerate(shards) if n != 1]
        found = tuple(p for p in merge_lane(plan, shards, 1).problems if p.rule_id == rule)
        assert found, rule
        out[rule] = found
    try:
        shard_from_bytes(b'{"kind": "lanegate-shard-ledger"}', "property-shard-1-of-2.json")
    except ShardError as exc:
        out["shard-invalid"] = (
            ShardProblem("shard-invalid", Lane.PROPERTY, exc.diagnostic(), "x.json"),
        )
    return out


_CLEAN_MERGE = Scenario(shard_problems=())


@dataclass(frozen=True)
class Case:
    trips: tuple[Scenario, ...]
    passes: tuple[Scenario, ...]
    passes_fully: bool = True  # the passing scenarios pass the whole gate, not just this row


S = Scenario()
PROP, FX, FL = samples.property_ledger(), samples.fixture_ledger(), samples.flake_ledger()
UNSANDBOXED = SandboxRecord(mode="none")
_BASE_FAILED = BaseTestRun(node_id="tests/test_a.py::t", outcome="failed", restored=True, detail="")
_BASE_NARROWED = BaseTestChange(
    path="tests/test_a.py",
    test="tests/test_a.py::t",
    line=3,
    what="changed at head",
    base='@pytest.mark.parametrize("x", [1, 12])\ndef t(x): ...',
    head='@pytest.mark.parametrize("x", [1])\ndef t(x): ...',
)
_BASE_CODE_SKIP = BaseTestRun(
    node_id="tests/test_a.py::t", outcome="skipped-from-code", restored=False, detail="src/a.py"
)
_BASE_PASSED = BaseTestRun(
    node_id="tests/test_a.py::t", outcome="passed", restored=False, detail=""
)
_BASE_SKIP = BaseTestRun(node_id="tests/test_a.py::u", outcome="skipped", restored=False, detail="")
_PRE = BaseRecheck(
    node_id="tests/test_a.py::t",
    verdict="pre-existing",
    head_outcome="failed",
    head_detail="",
    base_outcomes=("failed", "failed", "failed"),
    base_detail="",
    reason="fails the same way in 3 of 3 runs at base",
)
_PRE_EXISTING = r(PROP, base_test_files=1, base_tests=(_BASE_FAILED,), base_rechecks=(_PRE,))
_GAP = UnmutatedLine(
    path="src/calc.py", line=4, what="a changed assign statement no mutation operator reaches"
)
_CANARY = r(
    samples.mutant(40, MutantStatus.SURVIVED),
    operator="compare",
    original="a < 3",
    replacement="3 > a",
)
_WITH_CANARY = r(PROP, canary_seed=12345, canaries=(_CANARY,))
# the killer of a canary loses every kill: the ledger's counts say so too
_CANARY_KILLED = r(
    PROP,
    canary_seed=12345,
    killed_mutants=0,
    canaries=(
        r(
            _CANARY,
            status=MutantStatus.KILLED,
            killed_by="tests/test_calc.py::test_order",
            kill_kind=samples.KillKind.PROPERTY,
        ),
    ),
)
_DILUTED = r(
    PROP,
    mutants=(
        *(r(samples.mutant(i), function="trivial_helper") for i in range(4)),
        *(
            r(samples.mutant(4 + i, MutantStatus.SURVIVED), function="weak_function")
            for i in range(2)
        ),
    ),
    mutants_planted=6,
    killed_mutants=4,
    mutant_budget=4,
)
_CUT = r(PROP.properties[0], max_examples=5, max_examples_cut=True)
_SNIFF = Introspection("src/calc.py", 3, "reads which modules are loaded (sys.modules)")
_UTF7 = EncodingDeclaration("src/calc.py", "utf-7", "utf-8")
# --- reverts (the base's version of a changed function) and the behaviour diff ---------------------
_REVERT = r(
    samples.mutant(50),
    operator="revert",
    function="clamp",
    original="def clamp(x, lo, hi):\n    return min(max(x, lo), lo)\n",
    replacement="def clamp(x, lo, hi):\n    return min(max(x, lo), hi)\n",
    killed_by="tests/test_calc.py::test_clamp_fix",
    kill_kind=KillKind.UNIT,
    detail="AssertionError: assert 10 == 0",
)
_REVERT_ALIVE = r(_REVERT, status=MutantStatus.SURVIVED, killed_by=None, kill_kind=None, detail="")
# killed only because the base has no `strict` parameter: the test always passes it
_REVERT_CALL_SHAPE = r(
    _REVERT, detail="TypeError: clamp() got an unexpected keyword argument 'strict'"
)
_HUNK_ALIVE = r(_REVERT_ALIVE, id="m-00000000a1a1", operator="revert-hunk", line=61)
_DIFFERENCE = BehaviourDifference(call="clamp(11, 0, 10)", base="10", head="0")


def _change(
    reverts: tuple[str, ...], verdict: str, behaviour: str, killer: str | None = None
) -> ChangeEvidence:
    differs = behaviour == "differs"
    return ChangeEvidence(
        path="src/calc.py",
        qualname="clamp",
        base_path="src/calc.py",
        base_qualname="clamp",
        matched="same",
        reverts=reverts,
        revert_problems=(),
        revert_verdict=verdict,
        revert_killed_by=killer,
        behaviour=behaviour,
        inputs_tried=0 if behaviour == "not-compared" else 240,
        input_sources=()
        if behaviour == "not-compared"
        else (InputSource(source="hypothesis", count=240),),
        differences=(_DIFFERENCE,) if differs else (),
        behaviour_reason="no strategy for parameter lo" if behaviour == "not-compared" else "",
        behaviour_seconds=0.5,
    )


def _with_reverts(*mutants: object, change: ChangeEvidence) -> object:
    listed = (*PROP.mutants, *mutants)
    return r(PROP, mutants=listed, mutants_planted=len(listed), changed_functions=(change,))


_KILLER = _REVERT.killed_by
_PINNED_SAME = _with_reverts(_REVERT, change=_change((_REVERT.id,), "pinned", "same", _KILLER))
_PINNED_DIFFERS = _with_reverts(
    _REVERT, change=_change((_REVERT.id,), "pinned", "differs", _KILLER)
)
_UNPINNED_DIFFERS = _with_reverts(
    _REVERT_ALIVE, change=_change((_REVERT.id,), "not-killed", "differs")
)
_UNPINNED_SAME = _with_reverts(_REVERT_ALIVE, change=_change((_REVERT.id,), "not-killed", "same"))
_UNPINNED_UNCOMPARED = _with_reverts(
    _REVERT_ALIVE, change=_change((_REVERT.id,), "not-killed", "not-compared")
)
_CALL_SHAPE_DIFFERS = _with_reverts(
    _REVERT_CALL_SHAPE, change=_change((_REVERT.id,), "call-shape", "differs")
)
_CALL_SHAPE_SAME = _with_reverts(
    _REVERT_CALL_SHAPE, change=_change((_REVERT.id,), "call-shape", "same")
)
_PARTLY = _with_reverts(
    _REVERT,
    _HUNK_ALIVE,
    change=_change((_REVERT.id, _HUNK_ALIVE.id), "partly-pinned", "same", _KILLER),
)
# the only differences are calls the base refuses (a TypeError at the call): judged at the shapes
# both accept, compared there only when inputs were drawn from the base's signature
_REFUSED = BehaviourDifference(
    call="clamp(11, 0, 10, strict=True)", base="raises TypeError", head="10"
)
_CALL_SHAPE_ONLY_REFUSED = _with_reverts(
    _REVERT_CALL_SHAPE,
    change=r(
        _change((_REVERT.id,), "call-shape", "differs"),
        differences=(_REFUSED,),
        input_sources=(InputSource(source="recorded", count=40),),
    ),
)
_CALL_SHAPE_DRAWN = _with_reverts(
    _REVERT_CALL_SHAPE,
    change=r(
        _change((_REVERT.id,), "call-shape", "differs"),
        differences=(_REFUSED,),
        input_sources=(
            InputSource(source="recorded", count=40),
            InputSource(source="hypothesis", count=100),
        ),
    ),
)
_APPROVAL = Policy(properties=PropertyPolicy(behaviour_changes_need_approval=True))

HUMAN = S.but(
    authorship=AuthorKind.HUMAN,
    fixture=r(FX, authorship=AuthorKind.HUMAN),
    flake=r(FL, authorship=AuthorKind.HUMAN),
)


_NO_ORACLE = r(
    PROP,
    oracle_findings=(
        OracleFinding(path="tests/test_new.py", line=3, test="test_x", reason="calls no oracle"),
    ),
)
# the rule's unit is the file: a rejected test beside one that calls an oracle fails nothing
_ONE_TEST_WITHOUT_ORACLE = r(
    PROP,
    oracle_findings=(
        OracleFinding(path="tests/test_calc.py", line=3, test="test_x", reason="calls no oracle"),
    ),
)
_NO_TEST_OF_THE_FILE_PASSES = r(
    _ONE_TEST_WITHOUT_ORACLE,
    properties=tuple(r(p, passed_oracle_check=False, oracle_reached=0) for p in PROP.properties),
)


def _attempt(n: int) -> Scenario:
    return S.but(
        property=r(PROP, run_attempt=n), fixture=r(FX, run_attempt=n), flake=r(FL, run_attempt=n)
    )


def _mutants(killed: int, survived: int) -> dict[str, object]:
    ms = (
        *(samples.mutant(i) for i in range(killed)),
        *(samples.mutant(killed + i, MutantStatus.SURVIVED) for i in range(survived)),
    )
    return {"mutants": ms, "mutants_planted": len(ms), "killed_mutants": killed}


def _prop_run(n: int, failed: int) -> object:
    return r(PROP.properties[n], cases_failed=failed)


def _case(**changes: object) -> object:
    return r(FX.cases[0], **changes)


def _file(n: int, **changes: object) -> object:
    return r(FX.files[n], **changes)


def _test(*outcomes: Outcome) -> object:
    return samples.flake_test("tests/test_calc.py::test_order", outcomes)


def _flake_tests(*outcomes: Outcome) -> Scenario:
    test = _test(*outcomes)
    return S.but(flake=r(FL, tests=(test, FL.tests[1]), deterministic=len(set(outcomes)) == 1))


def _leased_flake(touched: bool = False) -> Scenario:
    """The leased human flake (tests/test_io.py::test_socket) disagrees across replays."""
    shaky = samples.flake_test(
        "tests/test_io.py::test_socket[ipv6]",
        (Outcome.PASSED, Outcome.FAILED, Outcome.PASSED),
        touched=touched,
    )
    return S.but(flake=r(FL, tests=(*FL.tests, shaky), deterministic=False))


def _leaking(touched: bool = True, sequences: tuple[str, str] = ("fp" * 15, "fp" * 15)) -> Scenario:
    """A new test that passes every first run in a process and fails in the same runs of its
    repeat batches in two replays (it leaves state behind), or, with other `sequences`, by chance."""
    batches = tuple(
        r(
            samples.batch(n),
            passed=seq.count("p"),
            failed=seq.count("f"),
            first_failed_run=seq.find("f"),
            first_passed_run=seq.find("p"),
            sequence=seq,
        )
        for n, seq in zip((1, 2), sequences, strict=True)
    )
    test = r(
        _test(*(Outcome.PASSED,) * 3), deterministic=False, touched_by_diff=touched, batches=batches
    )
    return S.but(flake=r(FL, tests=(test, FL.tests[1]), deterministic=False))


def _lease(**changes: object) -> Scenario:
    return S.but(flake=r(FL, leases=(samples.lease(**changes),)))


def _finding(**changes: object) -> LintFindingRecord:
    base = LintFindingRecord(
        rule_id="continue-on-error",
        severity="error",
        message="a failing step is allowed to pass",
        path=".github/workflows/ci.yml",
        line=12,
        column=9,
        fix="remove continue-on-error",
        exempted=False,
    )
    return r(base, **changes)


_EARLY = datetime(2026, 11, 2, tzinfo=UTC)
_WORKFLOW = changed(".github/workflows/ci.yml", Role.WORKFLOW)
_POLICY_CASE = FixtureCase(id="calc-basic", input="in.json", expected="out.json", callable="m:f")
_RATIO_028 = Policy(properties=PropertyPolicy(mutant_kill_ratio=0.28, max_mutants=30))
_OTHER_CASE = FixtureCase(id="calc-other", input="in.json", expected="out.json", callable="m:f")

CASES: dict[str, Case] = {
    "ledger-missing": Case((S.but(raw={Lane.PROPERTY: None}), S.but(raw={Lane.FLAKE: None})), (S,)),
    "ledger-invalid": Case(
        (
            S.but(raw={Lane.FIXTURE: b'{"schema_version": 1'}),
            S.but(property=r(PROP, cases_run=-1)),
            S.but(raw={Lane.FLAKE: b""}),
        ),
        (S,),
    ),
    "ledger-writer": Case(
        (S.but(flake=r(FL, writer="patch-runner")), S.but(property=r(PROP, writer="flake-runner"))),
        (S,),
    ),
    "ledger-from-patch-job": Case(
        (S.but(property=r(PROP, job="apply-patch"), expect_jobs=False),),
        (S.but(expect_jobs=False),),
    ),
    "ledger-wrong-job": Case(
        (S.but(fixture=r(FX, job="build")),),
        (S.but(fixture=r(FX, job="build"), expect_jobs=False),),
    ),
    "sandbox-disabled": Case(
        (S.but(flake=r(FL, sandbox=UNSANDBOXED)), S.but(property=r(PROP, sandbox=UNSANDBOXED))),
        (S, HUMAN),
    ),
    "run-attempt": Case(
        (_attempt(2).but(run_attempt=2),), (S, _attempt(2).but(run_attempt=2, allow_rerun=True))
    ),
    "run-attempt-mismatch": Case((S.but(run_attempt=2), _attempt(2)), (S,), passes_fully=True),
    "ledger-lane-name": Case(
        (S.but(property=r(PROP, lane_name="other")),),
        (
            S.but(
                property=r(PROP, lane_name="other"),
                fixture=r(FX, lane_name="other"),
                flake=r(FL, lane_name="other"),
                policy=Policy(lane=LanePolicy(name="other")),
            ),
        ),
    ),
    "ledger-authorship": Case((S.but(flake=r(FL, authorship=AuthorKind.HUMAN)),), (HUMAN,)),
    "property-cases-failed": Case(
        (
            S.but(
                property=r(PROP, properties=(_prop_run(0, 1), PROP.properties[1]), cases_failed=1)
            ),
            S.but(property=r(PROP, cases_failed=1)),
        ),
        (S,),
    ),
    "property-no-cases": Case((S.but(property=r(PROP, cases_run=0, properties=())),), (S,)),
    "property-counts": Case(
        (
            S.but(property=r(PROP, cases_run=201)),
            S.but(property=r(PROP, properties=PROP.properties[:1])),
        ),
        (S,),
    ),
    "property-missing-oracle": Case(
        (S.but(property=_NO_ORACLE), S.but(property=_NO_TEST_OF_THE_FILE_PASSES)),
        (
            S.but(
                property=_NO_ORACLE,
                policy=Policy(properties=PropertyPolicy(fail_on_missing_oracle=False)),
            ),
            S.but(property=_ONE_TEST_WITHOUT_ORACLE),
        ),
    ),
    "property-mutant-budget": Case(
        (S.but(property=r(PROP, **_mutants(2, 3))),),
        (S, S.but(property=r(PROP, **_mutants(3, 2)))),
    ),
    "property-zero-budget": Case(
        (S.but(property=r(PROP, mutant_budget=0)),),
        (S.but(property=r(PROP, mutant_budget=0, **_mutants(0, 0))),),
    ),
    "property-budget-mismatch": Case(
        (S.but(property=r(PROP, mutant_budget=2)), S.but(property=r(PROP, mutant_kill_ratio=0.5))),
        (
            S,
            S.but(property=r(PROP, mutant_budget=6, **_mutants(8, 2))),
            # ceil(0.28 x 25) is 7; binary floating point says 8: both are accepted
            S.but(
                property=r(PROP, mutant_budget=7, mutant_kill_ratio=0.28, **_mutants(20, 5)),
                policy=_RATIO_028,
            ),
            S.but(
                property=r(PROP, mutant_budget=8, mutant_kill_ratio=0.28, **_mutants(20, 5)),
                policy=_RATIO_028,
            ),
        ),
    ),
    "property-planted-mismatch": Case((S.but(property=r(PROP, mutants_planted=6)),), (S,)),
    "property-killed-mismatch": Case(
        (
            S.but(property=r(PROP, killed_mutants=5)),
            S.but(
                property=r(
                    PROP,
                    mutants=(
                        *PROP.mutants[:3],
                        r(PROP.mutants[3], kill_kind="unit"),
                        PROP.mutants[4],
                    ),
                )
            ),
        ),
        (S,),
    ),
    "property-mutant-record": Case(
        (
            S.but(
                property=r(PROP, mutants=(r(PROP.mutants[0], killed_by=None), *PROP.mutants[1:]))
            ),
            S.but(property=r(PROP, mutants=(*PROP.mutants[:4], r(PROP.mutants[4], killed_by="t")))),
        ),
        (S,),
    ),
    "property-too-many-mutants": Case(
        (S.but(policy=Policy(properties=PropertyPolicy(max_mutants=4))),),
        (S.but(policy=Policy(properties=PropertyPolicy(max_mutants=5))),),
    ),
    "fixture-drift": Case(
        (
            S.but(
                fixture=r(
                    FX,
                    files=(
                        _file(0, status=FileStatus.DRIFT, actual_digest=samples.digest("c")),
                        FX.files[1],
                    ),
                )
            ),
            S.but(fixture=r(FX, cases=(_case(status=CaseStatus.DRIFT),))),
        ),
        (S,),
    ),
    "fixture-file-missing": Case(
        (
            S.but(
                fixture=r(
                    FX, files=(FX.files[0], _file(1, status=FileStatus.MISSING, actual_digest=None))
                )
            ),
        ),
        (S,),
    ),
    "fixture-unlocked": Case(
        (
            S.but(
                fixture=r(
                    FX,
                    files=(FX.files[0], _file(1, status=FileStatus.UNLOCKED, locked_digest=None)),
                )
            ),
        ),
        (
            S.but(
                fixture=r(
                    FX,
                    files=(FX.files[0], _file(1, status=FileStatus.UNLOCKED, locked_digest=None)),
                ),
                policy=Policy(fixtures=FixturePolicy(require_digest=False)),
            ),
        ),
    ),
    "fixture-lockfile-by-agent": Case(
        (
            S.but(
                fixture=r(
                    FX, lockfile=r(FX.lockfile, changed=True, head_digest=samples.digest("2"))
                )
            ),
        ),
        (
            HUMAN.but(
                fixture=r(
                    FX,
                    authorship=AuthorKind.HUMAN,
                    lockfile=r(FX.lockfile, changed=True, head_digest=samples.digest("2")),
                )
            ),
        ),
    ),
    "fixture-oracle-mismatch": Case(
        (
            S.but(
                fixture=r(
                    FX,
                    cases=(
                        _case(status=CaseStatus.ORACLE_MISMATCH, actual_digest=samples.digest("c")),
                    ),
                )
            ),
            S.but(fixture=r(FX, cases=(_case(actual_digest=samples.digest("c")),))),
            S.but(fixture=r(FX, cases=(_case(expected_digest=None),))),
        ),
        (S,),
    ),
    "fixture-case-not-run": Case(
        (
            S.but(fixture=r(FX, cases=(_case(status=CaseStatus.TIMEOUT, actual_digest=None),))),
            S.but(
                fixture=r(
                    FX, cases=(_case(status=CaseStatus.ERROR, actual_digest=None, detail="boom"),)
                )
            ),
            S.but(fixture=r(FX, cases=(_case(status=CaseStatus.MISSING, actual_digest=None),))),
        ),
        (S,),
    ),
    "fixture-no-cases": Case(
        (
            S.but(fixture=r(FX, cases=())),
            S.but(fixture=r(FX, cases=(), files=(), no_fixtures=True)),
        ),
        (
            S.but(
                fixture=r(FX, cases=(), files=(), no_fixtures=True),
                policy=Policy(fixtures=FixturePolicy(allow_none=True)),
            ),
        ),
    ),
    "fixture-case-not-replayed": Case(
        (S.but(policy=Policy(fixtures=FixturePolicy(cases=(_OTHER_CASE,)))),),
        (S.but(policy=Policy(fixtures=FixturePolicy(cases=(_POLICY_CASE,)))),),
    ),
    "fixture-ledger-inconsistent": Case(
        (
            S.but(fixture=r(FX, lockfile=r(FX.lockfile, head_digest=samples.digest("2")))),
            S.but(fixture=r(FX, cases=FX.cases * 2)),
            S.but(fixture=r(FX, files=(_file(0, actual_digest=samples.digest("c")), FX.files[1]))),
            S.but(
                fixture=r(FX, no_fixtures=True),
                policy=Policy(fixtures=FixturePolicy(allow_none=True)),
            ),
        ),
        (S,),
    ),
    "flake-nondeterministic": Case(
        (
            _flake_tests(Outcome.PASSED, Outcome.FAILED, Outcome.PASSED),
            S.but(flake=r(FL, deterministic=False)),
            S.but(flake=r(FL, tests=(r(FL.tests[0], deterministic=False), FL.tests[1]))),
            S.but(flake=r(FL, tests=(), deterministic=False)),
            # a lease never excuses a test the agent's diff touched, nor holds once expired
            _leased_flake(touched=True),
            _leased_flake().but(now=samples.LEASE_EXPIRES),
            _leased_flake().but(pr_body="no lease line"),
            # two repeat batches failing at other runs: chance, not a leak
            _leaking(sequences=("fp" * 15, "pf" * 15)),
        ),
        (S, S.but(flake=r(FL, tests=()), diff=diff(DEFAULT_FILES[0]))),
    ),
    "flake-nondeterministic-leased": Case((_leased_flake(),), (S,)),
    "flake-state-leak": Case(
        (_leaking(), _leaking(touched=False)),
        (S,),
    ),
    "flake-suite-collection": Case(
        (
            S.but(flake=r(FL, suite=r(FL.suite, ran=False, detail="pytest exited 4"))),
            S.but(
                flake=r(
                    FL,
                    suite=r(
                        FL.suite,
                        new_errors=(
                            CollectError(
                                collector="tests/unit/test_codec.py",
                                detail="import file mismatch: imported module 'test_codec' ...",
                            ),
                        ),
                    ),
                )
            ),
            S.but(
                flake=r(FL, suite=r(FL.suite, lost=("tests/test_old.py::test_a",), lost_count=1))
            ),
        ),
        (S, S.but(flake=r(FL, suite=r(FL.suite, head_tests=3)))),
    ),
    "flake-privilege-unchecked": Case(
        (
            S.but(flake=r(FL, privilege=PrivilegeCondition(detail="lanegate runs as uid 1001"))),
            S.but(flake=r(FL, privilege=PrivilegeCondition(detail="the sandbox is off"))),
        ),
        (S,),
    ),
    "flake-test-failed": Case(
        (
            _flake_tests(Outcome.FAILED, Outcome.FAILED, Outcome.FAILED),
            _flake_tests(*(Outcome.ERROR,) * 3),
        ),
        (S,),
    ),
    "flake-replay-incomplete": Case(
        (
            _flake_tests(*(Outcome.TIMEOUT,) * 3),
            _flake_tests(*(Outcome.MISSING,) * 3),
            S.but(flake=r(FL, replays=(*FL.replays[:2], r(FL.replays[2], timed_out=True)))),
        ),
        (S,),
    ),
    "flake-too-few-replays": Case(
        (
            _flake_tests(Outcome.PASSED, Outcome.PASSED),
            S.but(flake=r(FL, replays=FL.replays[:2])),
        ),
        (S,),
    ),
    "flake-low-power": Case(
        (
            S.but(flake=r(FL, tests=(r(FL.tests[0], batches=()), FL.tests[1]))),
            S.but(flake=r(FL, tests=(r(FL.tests[0], batches=(samples.batch(1, runs=1),)),))),
        ),
        (
            S,
            S.but(
                flake=r(FL, tests=(r(FL.tests[0], batches=()), FL.tests[1])),
                policy=r(samples.POLICY, flake=r(samples.POLICY.flake, detect_rate=0.7)),
            ),
        ),
    ),
    "flake-test-skipped": Case(
        (_flake_tests(*(Outcome.SKIPPED,) * 3),),
        (
            S,
            # an untouched test replayed beside the diff's, skipped by its own marks: the base's
            S.but(
                flake=r(
                    FL,
                    tests=(
                        *FL.tests,
                        samples.flake_test(
                            "tests/test_calc.py::test_needs_numpy",
                            (Outcome.SKIPPED,) * 3,
                            touched=False,
                        ),
                    ),
                )
            ),
        ),
    ),
    "flake-lease-class": Case((_lease(lease_class="cosmic"),), (S, _lease(lease_class="timing"))),
    "flake-lease-expired": Case(
        (
            _lease(root_cause_hash=None, expires_at=_EARLY, pr_body_expires_at=_EARLY).but(
                pr_body=f"lanegate-lease: tests/test_io.py::test_socket expires {_EARLY.isoformat()}"
            ),
            _lease(
                root_cause_hash=None, expires_at=samples.NOW, pr_body_expires_at=samples.NOW
            ).but(pr_body=None),
        ),
        (
            S,
            _lease(expires_at=_EARLY, pr_body_expires_at=_EARLY).but(
                pr_body=f"lanegate-lease: tests/test_io.py::test_socket expires {_EARLY.isoformat()}"
            ),
        ),
    ),
    "flake-lease-reruns": Case((_lease(reruns_used=3),), (_lease(reruns_used=2),)),
    "flake-lease-touched": Case(
        (_lease(touched_by_diff=True),),
        (
            HUMAN.but(
                flake=r(
                    FL, authorship=AuthorKind.HUMAN, leases=(samples.lease(touched_by_diff=True),)
                )
            ),
        ),
    ),
    "flake-lease-active": Case((_lease(root_cause_hash=None),), (S,)),
    "flake-lease-invalid": Case(
        (
            _lease(leased_at=datetime(2098, 1, 1, tzinfo=UTC)),
            _lease(leased_at=samples.LEASE_EXPIRES),
            S.but(flake=r(FL, leases=(samples.lease(), samples.lease()))),
        ),
        (S,),
    ),
    "flake-lease-not-in-pr": Case(
        (
            _lease(pr_body_checked=False),
            _lease(pr_body_expires_at=_EARLY),
            _lease(pr_body_expires_at=None),
            S.but(pr_body="no lease lines here"),
            S.but(
                pr_body=samples.PR_BODY
                + "lanegate-lease: tests/test_io.py::test_socket expires 2098-01-01T00:00:00Z\n"
            ),
            S.but(pr_body="lanegate-lease: tests/test_io.py::test_socket expires someday"),
        ),
        (
            S,
            S.but(pr_body=None),
            S.but(
                pr_body="lanegate-lease: tests/test_io.py::test_socket expires 2099-01-01T01:00:00+01:00"
            ),
        ),
    ),
    "flake-test-not-replayed": Case(
        (S.but(diff=diff(*DEFAULT_FILES, changed("tests/test_other.py", Role.TEST))),),
        (
            S,
            S.but(
                diff=diff(
                    *DEFAULT_FILES, changed("tests/test_gone.py", Role.TEST, change=Change.DELETED)
                )
            ),
            # a change that only deleted lines (whole tests): nothing of them remains to replay
            S.but(
                diff=diff(
                    *DEFAULT_FILES,
                    replace(changed("tests/test_other.py", Role.TEST), deletes_only=True),
                )
            ),
        ),
    ),
    "lint-retry-construct": Case(
        (
            S.but(lint=r(samples.lint_report(), findings=(_finding(),))),
            # the gate's lint: Lane B's scope and what the diff added both fail
            S.but(lint=r(samples.lint_report(), gate=True, findings=(_finding(),))),
            S.but(lint=r(samples.lint_report(), gate=True, findings=(_finding(scope="diff"),))),
            # a path lint's report (no --gate): a lane-a scope does not excuse a finding
            S.but(lint=r(samples.lint_report(), findings=(_finding(scope="lane-a"),))),
        ),
        (S, S.but(lint=r(samples.lint_report(), gate=True, findings=(_finding(scope="lane-a"),)))),
    ),
    "lint-exempted-in-lane-b": Case(
        (S.but(lint=r(samples.lint_report(), findings=(_finding(exempted=True),))),),
        (
            S,
            # the gate's Lane A findings are exempted under the repository's own policy
            S.but(
                lint=r(
                    samples.lint_report(),
                    gate=True,
                    findings=(_finding(scope="lane-a", exempted=True),),
                )
            ),
        ),
    ),
    "lint-lane-a": Case(
        (S.but(lint=r(samples.lint_report(), gate=True, findings=(_finding(scope="lane-a"),))),),
        (
            S,
            S.but(lint=r(samples.lint_report(), gate=True, findings=(_finding(),))),
            S.but(lint=r(samples.lint_report(), findings=(_finding(scope="lane-a"),))),
        ),
        passes_fully=False,
    ),
    "lint-mode": Case((S.but(lint=r(samples.lint_report(), mode="lane-a")),), (S,)),
    "lint-invalid": Case(
        (S.but(lint_raw=b"not json"), S.but(lint_raw=b'{"writer": "someone"}')),
        (S,),
    ),
    "lint-unchecked": Case((S.but(lint=None),), (S,)),
    "score-run-attempt": Case(
        (S.but(run_attempt=2),), (S, _attempt(2).but(run_attempt=2, allow_rerun=True))
    ),
    "run-attempt-allowed": Case(
        (_attempt(2).but(run_attempt=2, allow_rerun=True),), (S, S.but(allow_rerun=True))
    ),
    "ledger-commit-mismatch": Case(
        (
            S.but(flake=r(FL, head_commit="3" * 40), diff=None),
            S.but(
                property=r(PROP, base_commit="4" * 40),
                fixture=r(FX, base_commit="4" * 40),
                flake=r(FL, base_commit="4" * 40),
            ),
            S.but(
                property=r(PROP, head_commit="3" * 40),
                fixture=r(FX, head_commit="3" * 40),
                flake=r(FL, head_commit="3" * 40),
            ),
        ),
        (S,),
    ),
    "property-function-budget": Case(
        (S.but(property=_DILUTED),),
        (
            S,
            S.but(
                property=r(
                    _DILUTED,
                    mutants=_DILUTED.mutants[:4],
                    mutants_planted=4,
                    killed_mutants=4,
                    mutant_budget=3,
                )
            ),
        ),
    ),
    "property-unmutated-change": Case(
        (S.but(property=r(PROP, unmutated=(_GAP,))),),
        (S, HUMAN.but(property=r(PROP, unmutated=(_GAP,)))),
    ),
    "property-change-untested": Case(
        (
            S.but(property=_UNPINNED_DIFFERS),
            # killed only by a call the base cannot take: judged at the shapes both accept
            S.but(property=_CALL_SHAPE_DIFFERS),
            # the whole revert killed, one hunk's revert alone not
            S.but(property=_PARTLY),
            # a revert killed by a test that also killed a canary: the kill is void
            S.but(
                property=r(
                    _with_reverts(_REVERT, change=_change((_REVERT.id,), "not-killed", "differs")),
                    canary_seed=12345,
                    canaries=(
                        r(
                            _CANARY,
                            status=MutantStatus.KILLED,
                            killed_by=_KILLER,
                            kill_kind=KillKind.UNIT,
                        ),
                    ),
                )
            ),
        ),
        (
            S.but(property=_PINNED_SAME),
            S.but(property=_UNPINNED_SAME),  # a refactor as far as lanegate can see
            S.but(property=_CALL_SHAPE_SAME),
            S.but(property=r(_PINNED_DIFFERS)),
            S.but(property=_CALL_SHAPE_DRAWN),
            S.but(property=_CALL_SHAPE_ONLY_REFUSED),
        ),
        passes_fully=False,
    ),
    "property-change-not-compared": Case(
        (S.but(property=_UNPINNED_UNCOMPARED), S.but(property=_CALL_SHAPE_ONLY_REFUSED)),
        (
            S.but(property=_UNPINNED_SAME),
            S.but(property=_CALL_SHAPE_DRAWN),
            S.but(property=_PINNED_SAME),
        ),
        passes_fully=False,
    ),
    "property-behaviour-changed": Case(
        (S.but(property=_PINNED_DIFFERS),),
        (S.but(property=_PINNED_SAME), S.but(property=_PINNED_DIFFERS, policy=_APPROVAL)),
        passes_fully=False,
    ),
    "property-behaviour-change-approval": Case(
        (S.but(property=_PINNED_DIFFERS, policy=_APPROVAL),),
        (
            S.but(property=_PINNED_DIFFERS),
            S.but(property=_PINNED_SAME, policy=_APPROVAL),
            HUMAN.but(property=_PINNED_DIFFERS, policy=_APPROVAL),
        ),
        passes_fully=False,
    ),
    "property-change-record": Case(
        (
            # the recorded verdict is not what the reverts give
            S.but(
                property=_with_reverts(_REVERT, change=_change((_REVERT.id,), "not-killed", "same"))
            ),
            # a revert no changed function owns
            S.but(property=r(_PINNED_SAME, changed_functions=())),
            # a function naming an operator mutant as its revert
            S.but(property=_with_reverts(change=_change((PROP.mutants[0].id,), "not-run", "same"))),
        ),
        (S, S.but(property=_PINNED_SAME), S.but(property=_UNPINNED_SAME)),
    ),
    "property-max-examples-cut": Case(
        (
            S.but(property=r(PROP, properties=(_CUT,), cases_run=_CUT.cases_run)),
            S.but(
                property=r(
                    PROP,
                    properties=(r(_CUT, max_examples=100, generates=False),),
                    cases_run=_CUT.cases_run,
                )
            ),
        ),
        (S, HUMAN.but(property=r(PROP, properties=(_CUT,), cases_run=_CUT.cases_run))),
    ),
    "property-mutants-rederived": Case(
        (
            S.but(planned_mutants=tuple(m.id for m in PROP.mutants[1:])),
            S.but(planned_mutants=(*[m.id for m in PROP.mutants], "m-invented")),
            S.but(planned_mutants=()),
            # a ledger that dropped a canary, or lists one its seed does not draw
            S.but(property=_WITH_CANARY, planned_canaries=(_CANARY.id, "m-0000000000ff")),
            S.but(property=_WITH_CANARY, planned_canaries=()),
        ),
        (
            S,
            S.but(planned_mutants=tuple(m.id for m in reversed(PROP.mutants))),
            S.but(property=_WITH_CANARY, planned_canaries=(_CANARY.id,)),
        ),
    ),
    "property-oracle-not-reached": Case(
        (S.but(property=r(PROP, properties=(r(PROP.properties[0], oracle_reached=0),))),),
        (
            S,
            # a test that failed the static check is property-missing-oracle's, not this row's
            S.but(
                property=r(
                    PROP,
                    properties=(
                        r(PROP.properties[0], oracle_reached=0, passed_oracle_check=False),
                        PROP.properties[1],
                    ),
                )
            ),
        ),
    ),
    "property-no-code-reached": Case(
        (S.but(property=r(PROP, properties=(r(PROP.properties[0], code_reached=0),))),),
        (S,),
    ),
    "property-canary-killed": Case(
        (
            S.but(property=_CANARY_KILLED),
            S.but(property=r(PROP, canaries=(r(_CANARY, status=MutantStatus.ERROR),))),
            S.but(
                property=r(
                    PROP,
                    canaries=(r(_CANARY, status=MutantStatus.TIMEOUT, detected=True),),
                )
            ),
        ),
        (
            S,
            S.but(property=_WITH_CANARY),
            S.but(property=r(PROP, canaries=(r(_CANARY, status=MutantStatus.NO_TESTS),))),
            S.but(property=r(PROP, canaries=(r(_CANARY, status=MutantStatus.TIMEOUT),))),
        ),
    ),
    "property-base-test-failed": Case(
        (
            S.but(property=r(PROP, base_test_files=1, base_tests=(_BASE_FAILED,))),
            S.but(property=r(PROP, base_test_files=2, base_tests=())),
            S.but(property=r(PROP, base_test_files=1, base_tests=(_BASE_CODE_SKIP,))),
            S.but(property=r(_PRE_EXISTING, base_rechecks=(r(_PRE, verdict="passes-at-base"),))),
            S.but(property=r(_PRE_EXISTING, base_rechecks=(r(_PRE, base_outcomes=("failed",)),))),
            S.but(
                property=r(
                    _PRE_EXISTING,
                    base_rechecks=(r(_PRE, base_outcomes=("failed", "passed", "failed")),),
                )
            ),
            S.but(
                property=r(_PRE_EXISTING, base_rechecks=(r(_PRE, node_id="tests/test_a.py::x"),))
            ),
            # a skipped-by-code base test is not a failure a recheck can excuse
            S.but(
                property=r(
                    PROP,
                    base_test_files=1,
                    base_tests=(_BASE_CODE_SKIP,),
                    base_rechecks=(r(_PRE, node_id=_BASE_CODE_SKIP.node_id),),
                )
            ),
        ),
        (
            S,
            S.but(property=r(PROP, base_test_files=1, base_tests=(_BASE_PASSED, _BASE_SKIP))),
            S.but(property=_PRE_EXISTING),
        ),
    ),
    "property-mutant-draw-pinned": Case(
        (
            S.but(property=r(PROP, mutant_draw_pinned=True)),
            S.but(property=r(PROP, mutant_draw_pinned=True, mutant_draw=7)),
        ),
        (S, S.but(property=r(PROP, mutant_draw=7))),
    ),
    "property-base-test-pre-existing": Case(
        (S.but(property=_PRE_EXISTING),),
        (
            S,
            # a recheck that does not hold up excuses nothing (and is no pre-existing failure)
            S.but(property=r(_PRE_EXISTING, base_rechecks=(r(_PRE, base_outcomes=("failed",)),))),
            S.but(
                property=r(
                    _PRE_EXISTING,
                    base_rechecks=(r(_PRE, base_outcomes=("failed", "passed", "failed")),),
                )
            ),
            S.but(property=r(_PRE_EXISTING, base_rechecks=(r(_PRE, verdict="flaky-at-base"),))),
            S.but(
                property=r(_PRE_EXISTING, base_rechecks=(r(_PRE, node_id="tests/test_a.py::x"),))
            ),
        ),
        passes_fully=False,  # the near misses fail on property-base-test-failed
    ),
    "property-base-test-changed": Case(
        (S.but(property=r(PROP, base_test_changes=(_BASE_NARROWED,))),),
        (S, HUMAN.but(property=r(PROP, base_test_changes=(_BASE_NARROWED,)))),
    ),
    "diff-introspection": Case(
        (S.but(introspection=(_SNIFF,)),),
        (S, HUMAN.but(introspection=(_SNIFF,))),
    ),
    "gate-input-changed": Case(
        (
            S.but(diff=diff(*DEFAULT_FILES, _WORKFLOW)),
            S.but(
                diff=diff(
                    *DEFAULT_FILES, changed("flake_leases.json", Role.LEASES, change=Change.DELETED)
                )
            ),
        ),
        (HUMAN.but(diff=diff(*DEFAULT_FILES, _WORKFLOW)),),
    ),
    "source-encoding-declared": Case(
        (
            S.but(encodings=(_UTF7,)),
            S.but(encodings=(EncodingDeclaration("src/new.py", "unreadable: unknown", None),)),
        ),
        (S, HUMAN.but(encodings=(_UTF7,))),
    ),
    "gate-inputs-unchecked": Case((S.but(diff=None),), (S,)),
    **{
        rule: Case((S.but(shard_problems=problems),), (S, _CLEAN_MERGE))
        for rule, problems in _shard_problems().items()
    },
}


def human(scenario: Scenario) -> Scenario:
    """The same evidence scored as a diff a human owns (every ledger written for a human diff)."""
    return scenario.but(
        authorship=AuthorKind.HUMAN,
        fixture=r(scenario.fixture, authorship=AuthorKind.HUMAN),
        flake=r(scenario.flake, authorship=AuthorKind.HUMAN),
    )


_UNIT_KILLED = r(samples.mutant(0), kill_kind=samples.KillKind.UNIT, killed_by="tests/t.py::test_u")
# 4 of 5 mutants killed, every kill by a plain unit test: no property kill at all
_UNIT_ONLY = r(
    PROP,
    mutants=(
        *(r(_UNIT_KILLED, id=f"m-{i:012x}", line=10 + i) for i in range(4)),
        PROP.mutants[4],
    ),
    killed_mutants=0,
)
_UNIT_TOO_FEW = r(
    PROP,
    mutants=(
        _UNIT_KILLED,
        *(
            r(m, status=MutantStatus.SURVIVED, killed_by=None, kill_kind=None)
            for m in PROP.mutants[1:]
        ),
    ),
    killed_mutants=0,
)
_HUMAN_CHANGED_BASE_TEST = r(PROP, base_test_files=1, base_tests=(_BASE_FAILED,))
_UNTOUCHED_BASE_FAILED = r(_BASE_FAILED, restored=False)


# The Lane A column (SPEC 10) of the rows whose Lane A predicate reads the evidence differently,
# or whose note must leave the whole gate passing: `trips` fire the row in Lane A, `passes` do not.
LANE_A_CASES: dict[str, Case] = {
    # unit tests are evidence: every kill counts, property or not
    "property-mutant-budget": Case(
        (human(S.but(property=_UNIT_TOO_FEW)),),
        (human(S.but(property=_UNIT_ONLY)), human(S)),
    ),
    "property-function-budget": Case(
        (human(S.but(property=_UNIT_TOO_FEW)),),
        (human(S.but(property=_UNIT_ONLY)), human(S)),
    ),
    # a base test the human changed is theirs to change; one they did not change still fails
    "property-base-test-failed": Case(
        (
            human(S.but(property=r(PROP, base_test_files=1, base_tests=(_UNTOUCHED_BASE_FAILED,)))),
            human(S.but(property=r(PROP, base_test_files=2, base_tests=()))),
        ),
        (human(S.but(property=_HUMAN_CHANGED_BASE_TEST)), human(S)),
    ),
    # a dated lease is honoured until it expires, on a test the human touched too
    "flake-nondeterministic": Case(
        (
            human(_leased_flake(touched=True).but(now=samples.LEASE_EXPIRES)),
            human(_flake_tests(Outcome.PASSED, Outcome.FAILED, Outcome.PASSED)),
        ),
        (human(_leased_flake(touched=True)), human(_leased_flake())),
        passes_fully=False,  # a holding lease is a warning (flake-nondeterministic-leased)
    ),
    "flake-nondeterministic-leased": Case(
        (human(_leased_flake(touched=True)),),
        (human(S), human(_leased_flake(touched=True).but(now=samples.LEASE_EXPIRES))),
        passes_fully=False,
    ),
    # a test calling no oracle is a follow-up note: the human's gate passes
    "property-missing-oracle": Case((human(S.but(property=_NO_ORACLE)),), (human(S),)),
    "property-no-cases": Case(
        (human(S.but(property=r(PROP, cases_run=0, properties=()))),), (human(S),)
    ),
}
