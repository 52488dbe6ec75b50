"""The decision table (SPEC 5, 10) as data: one row per rule id, with its lane, both columns, fix and
predicate.

A row's `scope` says what its predicate is applied to: each ledger slot (loaded or failed), one lane's
loaded ledger, or the whole run. Its severity is the Lane B column (agent diffs); `lane_a` is the Lane A
column (diffs a human owns): the same, a note (a follow-up that never fails), a warning, or not
applicable, and `lane_a_check` the predicate Lane A reads the evidence with where it reads it
differently (a unit test's kill counts; a dated lease is honoured on a test the human touched). Adding
a rule means adding a row here, a predicate, a docs section in docs/score-rules.md (both columns), and a
tripping and a passing case in tests/unit/scoring/cases.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from lanegate.model import Lane, Severity
from lanegate.scoring import common_rules as common
from lanegate.scoring import fixture_rules as fixture
from lanegate.scoring import flake_rules as flake
from lanegate.scoring import lane_a_rules as lane_a
from lanegate.scoring import property_rules as prop
from lanegate.scoring.evidence import Hit, RuleContext
from lanegate.scoring.shard_rules import problems_of as shard


class Scope(StrEnum):
    """What a row's predicate is given."""

    SLOT = "slot"  # SlotEvidence of each of the three ledgers
    PROPERTY = "property"  # a loaded PropertyLedger
    FIXTURE = "fixture"  # a loaded FixtureLedger
    FLAKE = "flake"  # a loaded FlakeLedger
    RUN = "run"  # the ScoreInputs as a whole


class Column(StrEnum):
    """What a row does in one column of the decision table."""

    FAIL = "fail"
    WARN = "warn"
    NOTE = "note"  # a follow-up: shown in the summary, never a fail, never a pass token
    NONE = "n/a"  # the row does not apply


_SEVERITY: dict[Column, Severity] = {
    Column.FAIL: Severity.ERROR,
    Column.WARN: Severity.WARNING,
    Column.NOTE: Severity.NOTE,
}

Predicate = Callable[[Any, RuleContext], Iterable[Hit]]


@dataclass(frozen=True, slots=True)
class Row:
    """One decision-table row. `lane` None means: the lane of the ledger it fired on. `severity` is
    the Lane B column; `lane_a` None means Lane A does the same."""

    rule_id: str
    scope: Scope
    lane: Lane | None
    severity: Severity
    observation: str
    fix: str
    check: Predicate
    lane_a: Column | None = None
    lane_a_check: Predicate | None = None

    @property
    def lane_b_column(self) -> Column:
        """Lane B's column: fail or warn, from the severity."""
        return Column.FAIL if self.severity is Severity.ERROR else Column.WARN

    @property
    def lane_a_column(self) -> Column:
        """Lane A's column: its own entry, else the same as Lane B's."""
        return self.lane_b_column if self.lane_a is None else self.lane_a

    def column(self, human: bool) -> Column:
        """The column the scorer applies: Lane A for a diff a human owns, else Lane B."""
        return self.lane_a_column if human else self.lane_b_column

    def severity_in(self, column: Column) -> Severity | None:
        """The severity this row's reasons carry in `column` (None: the row does not apply)."""
        return _SEVERITY.get(column)

    def check_for(self, human: bool) -> Predicate:
        """The predicate of the column the scorer applies."""
        return self.lane_a_check if human and self.lane_a_check is not None else self.check


E, W = Severity.ERROR, Severity.WARNING
# Lane A column entries (SPEC 10): not applicable, a follow-up note, a warning
NA, NOTE, WARN = Column.NONE, Column.NOTE, Column.WARN
P, F, K, G, L = Lane.PROPERTY, Lane.FIXTURE, Lane.FLAKE, Lane.GATE, Lane.LINT

# fmt: off
TABLE: tuple[Row, ...] = (
    # --- any ledger: provenance ------------------------------------------------------------------
    Row("ledger-missing", Scope.SLOT, None, E, "a ledger is missing",
        "run the lane job and upload its ledger; a missing ledger is never a skip",
        common.ledger_missing),
    Row("ledger-invalid", Scope.SLOT, None, E,
        "a ledger is unreadable, not JSON, of an unknown schema_version or has a field of the wrong type",
        "regenerate the ledger with the same lanegate version as the scorer; never edit it by hand",
        common.ledger_invalid),
    Row("ledger-writer", Scope.SLOT, None, E, "writer is not the lane's runner",
        "let only the lane's own job write its ledger", common.ledger_writer),
    Row("ledger-from-patch-job", Scope.SLOT, None, E, "the ledger came from the patch job",
        "run each lane in its own job, separate from the job that builds the patch",
        common.from_patch_job),
    Row("ledger-wrong-job", Scope.SLOT, None, E,
        "in Actions, the ledger's job is not the reusable workflow's job of that lane",
        "score only ledgers uploaded by the property, fixture and flake jobs", common.wrong_job),
    Row("sandbox-disabled", Scope.SLOT, None, E,
        "the diff's tests ran without the sandbox (--no-sandbox)",
        "run the lane in the bubblewrap sandbox (install bubblewrap; drop --no-sandbox)",
        common.sandbox_disabled, lane_a=WARN),
    Row("run-attempt", Scope.SLOT, None, E, "run_attempt > 1 on a lane job",
        "push a new commit instead of re-running the workflow", common.run_attempt),
    Row("run-attempt-mismatch", Scope.SLOT, None, E,
        "the ledger's run_attempt differs from the scorer's attempt",
        "score only the ledgers of the current attempt", common.run_attempt_mismatch),
    Row("ledger-lane-name", Scope.SLOT, None, E, "the ledger's lane_name is not the policy's lane.name",
        "write and score the ledgers under the same policy", common.lane_name),
    Row("ledger-authorship", Scope.SLOT, None, E,
        "a ledger was evaluated as a human diff while the scorer sees an agent diff",
        "run every job with the same authorship decision", common.authorship_mismatch, lane_a=NA),
    # --- property ----------------------------------------------------------------------------------
    Row("property-cases-failed", Scope.PROPERTY, P, E, "cases_failed > 0",
        "fix the code (or the property) until no counterexample is found", prop.cases_failed),
    Row("property-no-cases", Scope.PROPERTY, P, E, "cases_run == 0",
        "add a Hypothesis property over the changed code that runs at least one case",
        prop.no_cases, lane_a=NOTE),
    Row("property-counts", Scope.PROPERTY, P, E,
        "cases_run/cases_failed are not the sums over properties",
        "regenerate the ledger with `lanegate property`; the counts must add up", prop.case_counts),
    Row("property-missing-oracle", Scope.PROPERTY, P, E,
        "a new test file calls no oracle (fail_on_missing_oracle)",
        "call a property oracle from properties.module on values derived from the test's inputs",
        prop.missing_oracle, lane_a=NOTE),
    Row("property-mutant-budget", Scope.PROPERTY, P, E, "killed_mutants < mutant_budget",
        "add properties that kill the surviving mutants listed in the summary (a refused input: "
        "raises(ValueError, f, x) from lanegate.oracles, not pytest.raises)", prop.mutant_budget,
        lane_a=NOTE, lane_a_check=lane_a.mutant_budget),
    Row("property-function-budget", Scope.PROPERTY, P, E,
        "a changed function's own mutants are killed below the ratio",
        "add a property that checks the behaviour of that function", prop.function_budget,
        lane_a=NOTE, lane_a_check=lane_a.function_budget),
    Row("property-zero-budget", Scope.PROPERTY, P, E, "mutant_budget == 0 where mutants exist",
        "set properties.mutant_kill_ratio above 0 and regenerate the ledger", prop.zero_budget),
    Row("property-budget-mismatch", Scope.PROPERTY, P, E,
        "mutant_budget != ceil(policy mutant_kill_ratio x mutants_planted)",
        "regenerate the ledger under the repository's policy", prop.budget_mismatch),
    Row("property-planted-mismatch", Scope.PROPERTY, P, E, "mutants_planted != number of mutants listed",
        "regenerate the ledger with `lanegate property`", prop.planted_mismatch),
    Row("property-killed-mismatch", Scope.PROPERTY, P, E,
        "killed_mutants != mutants listed as killed by a property or detected",
        "regenerate the ledger with `lanegate property`", prop.killed_mismatch),
    Row("property-mutant-record", Scope.PROPERTY, P, E,
        "a killed mutant names no killer, or a surviving one names a killer",
        "regenerate the ledger with `lanegate property`", prop.mutant_record),
    Row("property-too-many-mutants", Scope.PROPERTY, P, E, "mutants_planted > the policy's cap",
        "regenerate the ledger under the repository's policy", prop.too_many_mutants),
    Row("property-unmutated-change", Scope.PROPERTY, P, E,
        "an agent diff changes executable code where no mutant can be planted",
        "express the change so an operator reaches it (a comparison, a value, a call's result), "
        "or have a human review it", prop.unmutated_change, lane_a=NA),
    Row("property-change-untested", Scope.PROPERTY, P, E,
        "no test kills a changed function's revert (the base's version), and base and head differ",
        "add a test that fails on the base's version of the function (the examples show inputs "
        "where the two disagree), or undo the change if it was not meant",
        prop.change_untested, lane_a=NOTE),
    Row("property-change-not-compared", Scope.PROPERTY, P, E,
        "a changed function: no test kills its revert and the behaviour diff could not compare "
        "base and head",
        "add a test that fails on the base's version of the function, or give its parameters "
        "type annotations (or a @given test) the behaviour diff can draw inputs from",
        prop.change_not_compared, lane_a=WARN),
    Row("property-behaviour-changed", Scope.PROPERTY, P, W,
        "a changed function's behaviour differs from the base's, and a test pins the new behaviour",
        "check the examples: the test may encode the author's own misunderstanding",
        prop.behaviour_changed),
    Row("property-behaviour-change-approval", Scope.PROPERTY, P, E,
        "an agent diff changes the behaviour of a function that exists at base "
        "(properties.behaviour_changes_need_approval)",
        "have a human make or take over the change (a human-authored PR), or turn the policy off",
        prop.behaviour_change_approval, lane_a=NA),
    Row("property-change-record", Scope.PROPERTY, P, E,
        "changed_functions disagrees with the revert mutants listed",
        "regenerate the ledger with `lanegate property`", prop.change_record),
    Row("property-max-examples-cut", Scope.PROPERTY, P, E,
        "an agent's property runs fewer Hypothesis examples than properties.max_examples",
        "drop the settings or profile that lowers max_examples; a human may lower the policy",
        prop.max_examples_cut, lane_a=NA),
    Row("property-mutants-rederived", Scope.RUN, P, E,
        "the ledger's mutants are not the set the diff plants (re-derived by the scorer)",
        "regenerate the ledger with the property lane of this lanegate version",
        common.mutants_rederived),
    Row("property-oracle-not-reached", Scope.PROPERTY, P, E,
        "a new test ran but its checked oracle call was never reached at run time",
        "call the oracle on every case (no early return, no condition that is never true, "
        "no replaced oracle)",
        prop.oracle_not_reached, lane_a=NOTE),
    Row("property-no-code-reached", Scope.PROPERTY, P, E,
        "a new test reached its oracle but never called the repository's own code",
        "call the project's code under test inside the property (its functions, not builtins)",
        prop.no_code_reached, lane_a=NOTE),
    Row("property-canary-killed", Scope.PROPERTY, P, E,
        "a test killed a canary mutant (an edit that keeps the code's behaviour): its kills are void",
        "test what the code does, not its text (no source file, inspect.getsource, hash or "
        "byte code of the code under test), with an outcome that does not vary between runs "
        "(seed its randomness)",
        prop.canary_killed, lane_a=NOTE),
    Row("property-base-test-failed", Scope.PROPERTY, P, E,
        "a test of the merge base fails, errors, is missing or is skipped by changed code at head",
        "fix the code so the base's tests pass; a change that must change a test needs a human PR",
        prop.base_test_failed, lane_a_check=lane_a.base_test_failed),
    Row("property-base-test-changed", Scope.PROPERTY, P, E,
        "an agent diff changed, removed or narrowed a test of the merge base (or its module's code)",
        "leave the base's tests as they are and add new ones; a change to a base test is a human PR",
        prop.base_test_changed, lane_a=NA),
    Row("property-mutant-draw-pinned", Scope.PROPERTY, P, W,
        "the mutants were planted with a fixed draw, which every diff can know in advance",
        "unset properties.mutant_draw (and drop --mutant-draw) so that each run draws a secret",
        prop.mutant_draw_pinned),
    Row("property-base-test-pre-existing", Scope.PROPERTY, P, W,
        "a base test fails at head and fails the same way on the base's own code in every rerun",
        "fix or quarantine the test on the default branch (Lane A); it is no evidence for any diff",
        prop.base_test_pre_existing),
    # --- fixture -----------------------------------------------------------------------------------
    Row("fixture-drift", Scope.FIXTURE, F, E, "fixture bytes changed without a lockfile update",
        "restore the fixture bytes; a human updates fixtures and the lockfile in a separate PR",
        fixture.drift),
    Row("fixture-file-missing", Scope.FIXTURE, F, E, "a locked fixture file is missing",
        "restore the fixture file the base-ref lockfile lists", fixture.file_missing),
    Row("fixture-unlocked", Scope.FIXTURE, F, E, "a fixture file has no digest (require_digest)",
        "a human adds the file's digest to the lockfile on the base branch first", fixture.unlocked),
    Row("fixture-lockfile-by-agent", Scope.FIXTURE, F, E, "lockfile changed by an agent diff",
        "revert the lockfile change; lockfile updates need a human PR", fixture.lockfile_by_agent,
        lane_a=NA),
    Row("fixture-oracle-mismatch", Scope.FIXTURE, F, E, "expected_digest != actual_digest",
        "fix the code so the case reproduces its expected output; never rewrite the expected file",
        fixture.oracle_mismatch),
    Row("fixture-case-not-run", Scope.FIXTURE, F, E, "a case is missing, timed out or errored",
        "make the case run to completion within fixtures.case_timeout_seconds", fixture.case_not_run),
    Row("fixture-no-cases", Scope.FIXTURE, F, E,
        "empty case list (unless no_fixtures and fixtures.allow_none)",
        "declare [[fixtures.cases]] in the policy, or set fixtures.allow_none for a repo without fixtures",
        fixture.no_cases),
    Row("fixture-case-not-replayed", Scope.FIXTURE, F, E, "a policy case is absent from the ledger",
        "regenerate the ledger under the repository's policy", fixture.case_not_replayed),
    Row("fixture-ledger-inconsistent", Scope.FIXTURE, F, E, "the fixture ledger contradicts itself",
        "regenerate the ledger with `lanegate fixture`", fixture.inconsistent),
    # --- flake -------------------------------------------------------------------------------------
    Row("flake-nondeterministic", Scope.FLAKE, K, E, "a new or changed test disagrees across replays",
        "remove the source of non-determinism (order, hash seed, time zone, shared state); "
        "reproduce with the replay's recorded pins", flake.nondeterministic,
        lane_a_check=flake.nondeterministic_lane_a),
    Row("flake-nondeterministic-leased", Scope.FLAKE, K, W,
        "a test the diff did not touch disagrees across replays, excused by a holding lease",
        "find the flake's root cause before the lease expires", flake.nondeterministic_leased,
        lane_a_check=flake.nondeterministic_leased_lane_a),
    Row("flake-state-leak", Scope.FLAKE, K, E,
        "a replayed test fails only when it runs again in a process where it already ran (every "
        "first run passed)",
        "make the test leave nothing behind: copy parametrize values before changing them, reset "
        "module-level caches in a fixture, patch with pytest's monkeypatch (it undoes itself)",
        flake.state_leak_found, lane_a=NOTE),
    Row("flake-suite-collection", Scope.FLAKE, K, E,
        "the project's own pytest run (its configuration, no paths) collects at head a collection "
        "error or fewer tests outside the diff's files than at the merge base",
        "keep the whole suite collectable: a new test module needs a basename no other test "
        "module has (or __init__.py files in its folders); run `pytest --collect-only` at head",
        flake.suite_collection),
    Row("flake-privilege-unchecked", Scope.FLAKE, K, W,
        "no replay ran with the file-permission override a root CI job has (lanegate not root, or "
        "the sandbox off)",
        "run lanegate as root (a container job) with the sandbox on, so that one replay keeps "
        "the override and the others do not",
        flake.privilege_unchecked, lane_a=NOTE),
    Row("flake-test-failed", Scope.FLAKE, K, E, "a new or changed test fails in every replay",
        "fix the code or the test", flake.test_failed),
    Row("flake-replay-incomplete", Scope.FLAKE, K, E, "a replay outcome is missing, timeout or error",
        "make the test finish within lane.max_wall_seconds in every replay", flake.replay_incomplete),
    Row("flake-too-few-replays", Scope.FLAKE, K, E, "a test has fewer than min_replays replays",
        "regenerate the ledger with authorship.min_replays replays", flake.too_few_replays),
    Row("flake-low-power", Scope.FLAKE, K, E,
        "a test ran too few times to catch a flake failing flake.detect_rate of its runs",
        "raise flake.repeat_budget_seconds or speed the test up", flake.low_power),
    Row("flake-test-skipped", Scope.FLAKE, K, W, "a test the diff touched is skipped in every replay",
        "make the test run, or remove it", flake.test_skipped),
    Row("flake-lease-class", Scope.FLAKE, K, E, "lease class not in {timing, order, environment}",
        "give the lease one of the classes timing, order or environment", flake.lease_class),
    Row("flake-lease-expired", Scope.FLAKE, K, E, "lease expired with no root_cause_hash",
        "fix the flake and record its root_cause_hash, or have a human renew the lease",
        flake.lease_expired),
    Row("flake-lease-reruns", Scope.FLAKE, K, E, "reruns_used > max_reruns",
        "fix the flake; a lease does not grant more reruns", flake.lease_reruns),
    Row("flake-lease-touched", Scope.FLAKE, K, E, "a lease on a test the agent's diff touched",
        "the test must pass every replay on its own; Lane B ignores leases on touched tests",
        flake.lease_touched, lane_a=NA),
    Row("flake-lease-active", Scope.FLAKE, K, W, "lease active, not expired, no root cause",
        "find the root cause before the lease expires", flake.lease_active),
    Row("flake-lease-invalid", Scope.FLAKE, K, E,
        "a lease starts after it ends or in the future, or a test has two leases",
        "fix flake_leases.json (a human renews leases)", flake.lease_invalid),
    Row("flake-lease-not-in-pr", Scope.FLAKE, K, E,
        "a lease's expires_at is not shown in the PR body, or with another date",
        "add 'lanegate-lease: <test_id> expires <expires_at>' to the PR description",
        flake.lease_not_in_pr),
    Row("flake-test-not-replayed", Scope.RUN, K, E,
        "a test file the diff added or changed has no replayed test",
        "make the new tests collectable by pytest so the flake lane replays them",
        common.test_not_replayed),
    # --- lint --------------------------------------------------------------------------------------
    Row("lint-retry-construct", Scope.RUN, L, E,
        "retry construct in what Lane B runs, or added by the diff anywhere",
        "remove the retry construct (see the finding's own fix)", common.lint_retry_construct),
    Row("lint-exempted-in-lane-b", Scope.RUN, L, E, "a lint finding exempted for Lane A",
        "Lane B honours no exemption: remove the construct", common.lint_exempted, lane_a=NA),
    Row("lint-lane-a", Scope.RUN, L, W,
        "a retry construct in the repository's Lane A CI (not run by Lane B, not added by the diff)",
        "none needed for this pull request; the repository's own CI keeps it under its policy",
        common.lint_lane_a),
    Row("lint-mode", Scope.RUN, L, E, "the lint report was not made in lane-b mode",
        "run `lanegate lint --mode lane-b --format json`", common.lint_mode),
    Row("lint-invalid", Scope.RUN, L, E, "the lint report is unreadable or of the wrong shape",
        "regenerate it with `lanegate lint --format json`", common.lint_invalid),
    Row("lint-unchecked", Scope.RUN, L, W, "no lint report was given",
        "pass --lint FILE (the json output of `lanegate lint`)", common.lint_unchecked),
    # --- shards (lanegate.sharding.merge) ---------------------------------------------------------
    Row("shard-invalid", Scope.RUN, G, E, "a shard ledger file is unreadable or of the wrong shape",
        "let each shard job write its ledger with `lanegate property|flake --shard K/N --plan FILE`",
        shard("shard-invalid")),
    Row("shard-missing", Scope.RUN, G, E, "a planned shard never reported a ledger",
        "make every shard job finish and upload its ledger (a runner label with no runner, a "
        "cancelled or failed shard job fails closed)", shard("shard-missing")),
    Row("shard-duplicate", Scope.RUN, G, E,
        "two ledgers claim the same shard, or a shard lists an item twice",
        "score one ledger per shard of one run attempt", shard("shard-duplicate")),
    Row("shard-extra", Scope.RUN, G, E,
        "a shard outside the plan (another shard count or lane), or an unsharded ledger next to a plan",
        "score only the shards of this run's plan", shard("shard-extra")),
    Row("shard-slice", Scope.RUN, G, E,
        "a shard's ledger claims mutants or tests outside its slice, or leaves out its slice's mutants",
        "run each shard with `--shard K/N` on the plan of this diff", shard("shard-slice")),
    Row("shard-plan-mismatch", Scope.RUN, G, E,
        "the plan file or a shard's plan digest is not the plan the scorer derives from the diff",
        "make the plan with `lanegate plan` on the scored base and head", shard("shard-plan-mismatch")),
    Row("shard-attempt", Scope.RUN, G, E, "a shard ledger is from another run attempt than the scorer's",
        "score only the shards of the current attempt", shard("shard-attempt")),
    Row("shard-disagree", Scope.RUN, G, E,
        "shards disagree on evidence each of them measures (commits, properties, base tests, leases)",
        "make the suite deterministic; every shard must see the same baseline",
        shard("shard-disagree")),
    # --- the run -----------------------------------------------------------------------------------
    Row("score-run-attempt", Scope.RUN, G, E, "the scoring job itself is a re-run",
        "push a new commit instead of re-running the workflow", common.score_run_attempt),
    Row("run-attempt-allowed", Scope.RUN, G, W,
        "a re-run was scored because the caller explicitly allowed re-runs",
        "drop allow-rerun and push a new commit instead of re-running", common.rerun_allowed),
    Row("ledger-commit-mismatch", Scope.RUN, G, E,
        "ledgers disagree on base/head commit, or describe another head than the one scored",
        "score ledgers of one run of one commit", common.commit_mismatch),
    Row("gate-input-changed", Scope.RUN, G, E,
        "an agent diff changes workflows, CI scripts, policy, lockfile, leases or pytest config",
        "split the change: a human must make changes to the gate's own inputs",
        common.gate_input_changed, lane_a=NA),
    Row("diff-introspection", Scope.RUN, G, E,
        "an agent diff's code inspects or reaches into the test run that judges it",
        "remove the introspection (modules loaded, argv, environment, frames, pytest hooks, "
        "code objects, exec/eval); a human must review such code", common.diff_introspection,
        lane_a=NA),
    Row("source-encoding-declared", Scope.RUN, G, E,
        "an agent diff's Python file declares an encoding under which its lines are not git's lines",
        "remove the declaration and save the file as UTF-8 (Python's default): under another "
        "encoding the lines Python runs are not the lines the diff shows", common.source_encoding,
        lane_a=NA),
    Row("gate-inputs-unchecked", Scope.RUN, G, W, "no diff was given to the scorer",
        "pass --repo and --base so the scorer checks the gate's inputs", common.gate_inputs_unchecked),
)

RULES: dict[str, Row] = {row.rule_id: row for row in TABLE}
if len(RULES) != len(TABLE):  # pragma: no cover - a duplicate id is a programming error
    raise AssertionError("duplicate rule id in the decision table")


_BY_SCOPE: dict[Scope, tuple[Row, ...]] = {
    scope: tuple(row for row in TABLE if row.scope is scope) for scope in Scope
}


def rows(scope: Scope) -> tuple[Row, ...]:
    """The rows of one scope, in table order."""
    return _BY_SCOPE[scope]
