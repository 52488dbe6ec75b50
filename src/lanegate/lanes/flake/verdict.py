"""The flake lane's own reading of its ledger, used until (and checked against) the scorer's rows.

Rows (SPEC 5, flake): a test that disagrees across replays fails (never a quarantine candidate); a
test that fails in every replay fails; the lease rows (class, expiry without root cause, reruns, agent
touched, PR body). A valid lease on a test the diff did not touch excuses its disagreement with a
warning, never for a test an agent's diff touched.
"""

from __future__ import annotations

from datetime import datetime

from lanegate.lanes.flake.leases import lease_problems
from lanegate.lanes.flake.outcomes import describe_disagreement, failing_everywhere
from lanegate.ledgers.models import AuthorKind, FlakeLedger
from lanegate.model import Lane, Reason, Severity


def flake_reasons(ledger: FlakeLedger, *, now: datetime) -> list[Reason]:
    """Every fail and warning the flake ledger carries."""
    agent = ledger.authorship is AuthorKind.AGENT
    reasons: list[Reason] = []
    if ledger.run_attempt > 1:
        reasons.append(
            Reason(Lane.FLAKE, "flake-run-attempt", f"run_attempt is {ledger.run_attempt}: a re-run")
        )
    leases_ok: set[str] = set()
    for evaluation in ledger.leases:
        fails, warns = lease_problems(evaluation, now=now, agent=agent)
        reasons.extend(Reason(Lane.FLAKE, "flake-lease", m) for m in fails)
        reasons.extend(Reason(Lane.FLAKE, "flake-lease", m, Severity.WARNING) for m in warns)
        if not fails and evaluation.expires_at > now:
            leases_ok.add(evaluation.test_id)
    for test in ledger.tests:
        base = test.node_id.split("[", 1)[0]
        if not test.deterministic:
            message = "non-deterministic: " + describe_disagreement(test)
            leased = (test.node_id in leases_ok or base in leases_ok) and not (
                agent and test.touched_by_diff
            )
            severity = Severity.WARNING if leased else Severity.ERROR
            reasons.append(Reason(Lane.FLAKE, "flake-nondeterministic", message, severity))
    for test in failing_everywhere(ledger.tests):
        reasons.append(
            Reason(Lane.FLAKE, "flake-fails", f"{test.node_id}: failed in every replay")
        )
    if not ledger.deterministic and not any(
        r.rule_id == "flake-nondeterministic" for r in reasons
    ):
        reasons.append(Reason(Lane.FLAKE, "flake-nondeterministic", "ledger is not deterministic"))
    return reasons
