"""Predicates of the rows that hold for every ledger (provenance) and for the run as a whole."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import PurePosixPath

from lanegate.diff import Change, Role
from lanegate.ledgers.models import (
    AuthorKind,
    FixtureLedger,
    FlakeLedger,
    LintFindingRecord,
    LintReport,
    PropertyLedger,
)
from lanegate.model import Lane, Location
from lanegate.scoring.evidence import (
    WRITERS,
    FailureKind,
    Hit,
    LoadedLedger,
    LoadedLint,
    LoadFailure,
    RuleContext,
    ScoreInputs,
    SlotEvidence,
)

# --- slot rows: each of the three ledgers, loaded or not -----------------------------------------


def _failure(evidence: SlotEvidence, kind: FailureKind) -> Iterator[Hit]:
    slot = evidence.slot
    if isinstance(slot, LoadFailure) and slot.kind is kind:
        yield Hit(slot.message.removeprefix(f"{slot.path}: "), Location(slot.path))


def ledger_missing(evidence: SlotEvidence, ctx: RuleContext) -> Iterator[Hit]:
    """The lane's ledger is not there: a missing ledger is a fail, never a skip."""
    yield from _failure(evidence, FailureKind.MISSING)


def ledger_invalid(evidence: SlotEvidence, ctx: RuleContext) -> Iterator[Hit]:
    """The ledger is unreadable, not JSON, of another schema_version, or of the wrong shape."""
    yield from _failure(evidence, FailureKind.INVALID)


def ledger_writer(evidence: SlotEvidence, ctx: RuleContext) -> Iterator[Hit]:
    """The ledger was not written by its lane's runner."""
    yield from _failure(evidence, FailureKind.WRITER)
    slot = evidence.slot
    if isinstance(slot, LoadedLedger) and slot.value.writer != WRITERS[evidence.lane]:
        yield Hit(
            f"writer is {slot.value.writer!r}, expected {WRITERS[evidence.lane]!r}",
            Location(slot.path, route=("writer",)),
        )


def _loaded(evidence: SlotEvidence) -> LoadedLedger | None:
    return evidence.slot if isinstance(evidence.slot, LoadedLedger) else None


def sandbox_disabled(evidence: SlotEvidence, ctx: RuleContext) -> Iterator[Hit]:
    """The diff's code ran unsandboxed (SPEC 9): an agent's evidence cannot be trusted (a human's
    is allowed, and said: the Lane A column makes it a warning)."""
    slot = _loaded(evidence)
    if slot is not None and slot.value.sandbox.mode == "none":
        yield Hit(
            "the lane ran the head's code without a sandbox: nothing kept it from the evidence",
            Location(slot.path, route=("sandbox", "mode")),
        )


def from_patch_job(evidence: SlotEvidence, ctx: RuleContext) -> Iterator[Hit]:
    """A ledger written by the job that applied or built the patch is the patch grading itself."""
    slot = _loaded(evidence)
    if slot is not None and "patch" in slot.value.job.casefold():
        yield Hit(
            f"job is {slot.value.job!r}: written by the patch job",
            Location(slot.path, route=("job",)),
        )


def wrong_job(evidence: SlotEvidence, ctx: RuleContext) -> Iterator[Hit]:
    """In Actions each ledger must come from the reusable workflow's job of the same name."""
    slot = _loaded(evidence)
    if ctx.expect_jobs and slot is not None and slot.value.job != evidence.lane.value:
        yield Hit(
            f"job is {slot.value.job!r}, expected {evidence.lane.value!r}",
            Location(slot.path, route=("job",)),
        )


def run_attempt(evidence: SlotEvidence, ctx: RuleContext) -> Iterator[Hit]:
    """A ledger from a re-run (run_attempt > 1) is a retry: fail closed."""
    slot = _loaded(evidence)
    if slot is not None and slot.value.run_attempt > 1 and not ctx.allow_rerun:
        yield Hit(
            f"run_attempt is {slot.value.run_attempt}: a re-run is a retry",
            Location(slot.path, route=("run_attempt",)),
        )


def run_attempt_mismatch(evidence: SlotEvidence, ctx: RuleContext) -> Iterator[Hit]:
    """A ledger from another attempt than the scorer's own (e.g. an attempt-1 artifact in attempt 2)."""
    slot = _loaded(evidence)
    if (
        slot is not None
        and ctx.run_attempt is not None
        and slot.value.run_attempt != ctx.run_attempt
    ):
        yield Hit(
            f"run_attempt is {slot.value.run_attempt} but the scorer runs in attempt {ctx.run_attempt}",
            Location(slot.path, route=("run_attempt",)),
        )


def lane_name(evidence: SlotEvidence, ctx: RuleContext) -> Iterator[Hit]:
    """The ledger was written under another policy's lane name."""
    slot = _loaded(evidence)
    if slot is not None and slot.value.lane_name != ctx.policy.lane.name:
        yield Hit(
            f"lane_name is {slot.value.lane_name!r}, the policy says {ctx.policy.lane.name!r}",
            Location(slot.path, route=("lane_name",)),
        )


def authorship_mismatch(evidence: SlotEvidence, ctx: RuleContext) -> Iterator[Hit]:
    """A ledger evaluated as a human diff while the scorer sees an agent diff (a Lane B row only)."""
    slot = _loaded(evidence)
    if slot is None or not isinstance(slot.value, FixtureLedger | FlakeLedger):
        return
    if slot.value.authorship is AuthorKind.HUMAN:
        yield Hit(
            "the ledger was written for a human diff; the scorer sees an agent diff",
            Location(slot.path, route=("authorship",)),
        )


# --- run rows: the whole set of evidence -----------------------------------------------------------


def score_run_attempt(inputs: ScoreInputs, ctx: RuleContext) -> Iterator[Hit]:
    """The scoring job itself is a re-run."""
    if inputs.run_attempt > 1 and not inputs.allow_rerun:
        yield Hit(f"the scorer runs in attempt {inputs.run_attempt}: a re-run is a retry")


def rerun_allowed(inputs: ScoreInputs, ctx: RuleContext) -> Iterator[Hit]:
    """A re-run the caller explicitly accepted: visible in every report, never silent."""
    attempts = {inputs.run_attempt} | {slot.value.run_attempt for slot in inputs.loaded()}
    if inputs.allow_rerun and max(attempts) > 1:
        yield Hit(
            f"attempt {max(attempts)} scored because the caller opted out of the re-run refusal "
            "(allow-rerun); a re-run can turn a flake into a pass"
        )


def commit_mismatch(inputs: ScoreInputs, ctx: RuleContext) -> Iterator[Hit]:
    """The ledgers must describe one diff: the same base and head (and the diff the scorer sees)."""
    loaded = inputs.loaded()
    for field_name in ("base_commit", "head_commit"):
        values = {getattr(s.value, field_name) for s in loaded}
        if len(values) > 1:
            shown = ", ".join(f"{s.path}={getattr(s.value, field_name)[:12]}" for s in loaded)
            yield Hit(f"the ledgers disagree on {field_name}: {shown}")
    diff = inputs.diff
    if diff is None:
        return
    for s in loaded:
        if s.value.head_commit != diff.head_commit:
            yield Hit(
                f"head_commit {s.value.head_commit[:12]} is not the head being scored "
                f"({diff.head_commit[:12]})",
                Location(s.path, route=("head_commit",)),
            )
        if s.value.base_commit not in (diff.base_commit, diff.merge_base):
            yield Hit(
                f"base_commit {s.value.base_commit[:12]} is neither the base "
                f"({diff.base_commit[:12]}) nor the merge base ({diff.merge_base[:12]})",
                Location(s.path, route=("base_commit",)),
            )


def gate_input_changed(inputs: ScoreInputs, ctx: RuleContext) -> Iterator[Hit]:
    """An agent diff that changes the gate's own inputs needs a human."""
    if inputs.diff is None:
        return
    for f in inputs.diff.files:
        if f.is_gate_input:
            roles = ", ".join(sorted(str(r) for r in f.roles if r is not Role.OTHER))
            yield Hit(f"{f.change} by an agent diff ({roles})", Location(f.path))


def diff_introspection(inputs: ScoreInputs, ctx: RuleContext) -> Iterator[Hit]:
    """An agent diff whose code inspects or reaches into the run that judges it."""
    for found in inputs.introspection:
        yield Hit(found.what, Location(found.path, line=found.line or None))


def source_encoding(inputs: ScoreInputs, ctx: RuleContext) -> Iterator[Hit]:
    """An agent diff's Python file whose declared encoding makes Python's lines other than git's:
    the lines Python runs are then not the lines every line-based check reads."""
    if ctx.authorship is not AuthorKind.AGENT:
        return
    for found in inputs.encodings:
        was = "a new file" if found.before is None else f"was {found.before}"
        yield Hit(
            f"declares encoding {found.encoding} ({was}), under which Python's lines are not git's",
            Location(found.path, line=1),
        )


def gate_inputs_unchecked(inputs: ScoreInputs, ctx: RuleContext) -> Iterator[Hit]:
    """Without the diff the scorer cannot see whether the agent changed the gate's inputs."""
    if inputs.diff is None:
        yield Hit("no diff was given (--repo/--base): gate inputs were not checked")


def mutants_rederived(inputs: ScoreInputs, ctx: RuleContext) -> Iterator[Hit]:
    """The property ledger's mutants are not the ones the diff plants (re-derived by the caller from
    diff digest, seed, operator version and the ledger's mutant draw): a lane that left some out,
    or invented some, is not evidence about this diff."""
    slot = inputs.slot(Lane.PROPERTY)
    planned = inputs.planned_mutants
    if not isinstance(slot, LoadedLedger):
        return
    ledger = slot.value
    if not isinstance(ledger, PropertyLedger):
        return
    listed = {m.id for m in ledger.mutants}
    missing = sorted(set(planned or ()) - listed)
    extra = sorted(listed - set(planned)) if planned is not None else []
    parts = []
    if missing:
        parts.append(f"{len(missing)} planted mutant(s) absent ({', '.join(missing[:3])})")
    if extra:
        parts.append(f"{len(extra)} unknown mutant(s) listed ({', '.join(extra[:3])})")
    if parts:
        drawn = f"drawn with mutant_draw {ledger.mutant_draw}: "
        yield Hit(drawn + "; ".join(parts), Location(slot.path, route=("mutants",)))
    if inputs.planned_canaries is not None:
        canaries = {c.id for c in ledger.canaries}
        absent = sorted(set(inputs.planned_canaries) - canaries)
        unknown = sorted(canaries - set(inputs.planned_canaries))
        if absent or unknown:
            yield Hit(
                f"the canaries drawn with canary_seed {ledger.canary_seed} are not the ones listed: "
                f"{len(absent)} absent, {len(unknown)} unknown",
                Location(slot.path, route=("canaries",)),
            )


def test_not_replayed(inputs: ScoreInputs, ctx: RuleContext) -> Iterator[Hit]:
    """Each added or changed test file of the diff must have tests in the flake ledger, except one
    whose change only deletes lines: it adds nothing to collect, and the flake lane replays what
    remains of each test the deletion cut (nothing, when it deleted whole tests)."""
    slot = inputs.slot(Lane.FLAKE)
    if inputs.diff is None or not isinstance(slot, LoadedLedger):
        return
    ledger = slot.value
    if not isinstance(ledger, FlakeLedger):
        return
    replayed = {t.node_id.split("::", 1)[0] for t in ledger.tests}
    for f in inputs.diff.with_role(Role.TEST):
        if PurePosixPath(f.path).name == "conftest.py" or f.change is Change.DELETED:
            continue
        if f.deletes_only:
            continue
        if not _replayed(f.path, replayed):
            yield Hit("changed by the diff but no test of it was replayed", Location(f.path))


def _replayed(diff_path: str, replayed: set[str]) -> bool:
    """Whether a node id's file names `diff_path`: itself, or a tail of it after a `/` (pytest node
    ids are relative to its rootdir, which may be a subfolder of the repository); a lookup per
    folder level, not a scan of the replayed files per diff file."""
    parts = diff_path.split("/")
    return any("/".join(parts[depth:]) in replayed for depth in range(len(parts)))


def lint_invalid(inputs: ScoreInputs, ctx: RuleContext) -> Iterator[Hit]:
    """A lint report was given but cannot be read: fail closed."""
    if isinstance(inputs.lint, LoadFailure):
        yield Hit(
            inputs.lint.message.removeprefix(f"{inputs.lint.path}: "), Location(inputs.lint.path)
        )


def lint_unchecked(inputs: ScoreInputs, ctx: RuleContext) -> Iterator[Hit]:
    """No lint report was given: retry constructs were not looked for."""
    if inputs.lint is None:
        yield Hit("no lint report was given (--lint): retry constructs were not checked")


def lint_mode(inputs: ScoreInputs, ctx: RuleContext) -> Iterator[Hit]:
    """The scorer is Lane B: the lint report must be a Lane B one."""
    if isinstance(inputs.lint, LoadedLint) and inputs.lint.value.mode != "lane-b":
        yield Hit(
            f"the lint report was made in mode {inputs.lint.value.mode!r}; Lane B needs 'lane-b'",
            Location(inputs.lint.path, route=("mode",)),
        )


_SCOPE_WORDS = {"lane-b": "in what Lane B runs", "diff": "added by the diff"}


def _lane_a(finding: LintFindingRecord, report: LintReport) -> bool:
    """A finding of the gate's Lane A scope: reported, never a fail by itself."""
    return report.gate and finding.scope == "lane-a"


def lint_retry_construct(inputs: ScoreInputs, ctx: RuleContext) -> Iterator[Hit]:
    """Every retry or failure-forgiving construct lint found (not exempted) in what Lane B runs or
    added by the diff fails."""
    if not isinstance(inputs.lint, LoadedLint):
        return
    report = inputs.lint.value
    for finding in report.findings:
        if not finding.exempted and not _lane_a(finding, report):
            where = f" ({_SCOPE_WORDS[finding.scope]})" if report.gate else ""
            yield Hit(
                f"{finding.rule_id}{where}: {finding.message}",
                Location(finding.path, line=finding.line, column=finding.column, note=finding.fix),
            )


def lint_lane_a(inputs: ScoreInputs, ctx: RuleContext) -> Iterator[Hit]:
    """A finding in the repository's Lane A CI: shown, does not fail (its exemptions apply)."""
    if not isinstance(inputs.lint, LoadedLint):
        return
    report = inputs.lint.value
    for finding in report.findings:
        if _lane_a(finding, report) and not finding.exempted:
            yield Hit(
                f"{finding.rule_id} (Lane A, reported only): {finding.message}",
                Location(finding.path, line=finding.line, column=finding.column, note=finding.fix),
            )


def lint_exempted(inputs: ScoreInputs, ctx: RuleContext) -> Iterator[Hit]:
    """Lane B honours no exemption (SPEC 7): an exempted finding still fails here (a Lane A one of
    the gate's lint is exempted under its own policy)."""
    if not isinstance(inputs.lint, LoadedLint):
        return
    report = inputs.lint.value
    for finding in report.findings:
        if finding.exempted and not _lane_a(finding, report):
            yield Hit(
                f"{finding.rule_id} (exempted for Lane A): {finding.message}",
                Location(finding.path, line=finding.line, column=finding.column),
            )
