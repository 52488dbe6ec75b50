"""What every lane run is given (LaneContext), what it returns (LaneOutcome), and progress events."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lanegate._version import __version__
from lanegate.authorship import Authorship
from lanegate.errors import UsageError
from lanegate.lanes.base_policy import trusted_sandbox
from lanegate.ledgers.models import (
    PROPERTY_SCHEMA_VERSION,
    PROPERTY_WRITER,
    SCHEMA_VERSION,
    AuthorKind,
)
from lanegate.policy import Policy
from lanegate.sandbox import Sandbox, open_sandbox


@dataclass(frozen=True, slots=True)
class ProgressEvent:
    """One step of a lane, for live displays: `done` of `total` units of `unit` (e.g. replay 2 of 6)."""

    lane: str
    message: str
    unit: str = ""
    done: int = 0
    total: int = 0


ProgressSink = Callable[[ProgressEvent], None]


def no_progress(event: ProgressEvent) -> None:
    """A sink that ignores progress."""


@dataclass(frozen=True, slots=True)
class LaneContext:
    """Everything one lane run needs; the clock and environment are read once, here, by the caller."""

    repo: Path
    base: str
    policy: Policy
    out_dir: Path
    head: str = "HEAD"
    run_attempt: int = 1
    job: str = "local"
    now: datetime = field(default_factory=lambda: datetime.now(UTC))
    authorship: Authorship = field(
        default_factory=lambda: Authorship(AuthorKind.AGENT, "authorship unknown: treated as agent")
    )
    pr_body: str | None = None
    progress: ProgressSink = no_progress
    version: str = __version__
    # False only for an explicit --no-sandbox: recorded in every ledger, failed for agent diffs
    sandboxed: bool = True
    # the explicit policy file (--config), if any: where `base_policy` reads the merge base's keys
    config: Path | None = None
    # more folders the head's tests must not see besides `out_dir` (a batch's other candidates)
    hidden: tuple[Path, ...] = ()


@dataclass(frozen=True, slots=True)
class LaneOutcome:
    """A lane's result: where its ledger went, whether the scorer would pass it, and why not."""

    lane: str
    ledger_path: Path
    would_pass: bool
    summary: str
    problems: tuple[str, ...] = ()


def run_attempt_from_env(environ: dict[str, str] | None = None) -> int:
    """GITHUB_RUN_ATTEMPT as an int (1 when unset); garbage is a usage error, never attempt 1."""
    env = os.environ if environ is None else environ
    raw = env.get("GITHUB_RUN_ATTEMPT", "1")
    if not raw.isdigit() or int(raw) < 1:
        raise UsageError(f"GITHUB_RUN_ATTEMPT: {raw!r} is not a positive integer")
    return int(raw)


def job_from_env(environ: dict[str, str] | None = None) -> str:
    """GITHUB_JOB, or `local` outside Actions."""
    env = os.environ if environ is None else environ
    return env.get("GITHUB_JOB") or "local"


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the platform says, else the count):
    how many test processes a lane, or a run of lanes, keeps going at once."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        try:
            return max(1, len(affinity(0)))
        except OSError:
            pass
    return max(1, os.cpu_count() or 1)


def lane_sandbox(ctx: LaneContext) -> Sandbox:
    """The sandbox this lane's test processes run in (lanegate's output dir hidden from them; the
    variables they may see besides the few every test needs named by the merge base's policy)."""
    return open_sandbox(
        ctx.repo,
        trusted_sandbox(ctx.repo, ctx.base, ctx.head, ctx.policy, ctx.config),
        enabled=ctx.sandboxed,
        hidden=(ctx.out_dir, *ctx.hidden),
    )


def envelope(
    ctx: LaneContext,
    *,
    writer: str,
    suite_id: str,
    base_commit: str,
    head_commit: str,
    sandbox: Sandbox,
) -> dict[str, Any]:
    """The provenance fields every lane ledger starts with (SPEC 4), filled the same way by each lane."""
    return {
        "schema_version": PROPERTY_SCHEMA_VERSION if writer == PROPERTY_WRITER else SCHEMA_VERSION,
        "writer": writer,
        "lane_name": ctx.policy.lane.name,
        "suite_id": suite_id,
        "run_attempt": ctx.run_attempt,
        "base_commit": base_commit,
        "head_commit": head_commit,
        "lanegate_version": ctx.version,
        "job": ctx.job,
        "created_utc": ctx.now.astimezone(UTC),
        "sandbox": sandbox.record,
    }
