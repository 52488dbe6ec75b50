"""The demo's story: what each head planted and which rule answered it, as short plain text."""

from __future__ import annotations

from collections.abc import Sequence

from lanegate.demo.scenario import Judgement
from lanegate.ledgers.models import ReportReason
from lanegate.run.orchestrate import StepTiming


def _where(reason: ReportReason) -> str:
    if reason.path is None:
        return ""
    if reason.path.startswith("/"):  # a ledger in the demo's temporary folder: its name is enough
        return f" {reason.path.rsplit('/', 1)[-1]}"
    return f" {reason.path}:{reason.line}" if reason.line is not None else f" {reason.path}"


def _reason(reason: ReportReason, indent: str = "      ") -> str:
    return f"{indent}-> {reason.rule_id}{_where(reason)}: {' '.join(reason.message.split())}"


def tell(judgement: Judgement, steps: Sequence[StepTiming] = ()) -> str:
    """One head's verdict, each planted problem with the fails that answered it, and any surprise."""
    head, report = judgement.head, judgement.report
    expected = "as expected" if judgement.as_expected else f"EXPECTED {head.verdict.upper()}"
    lines = [f"{head.name} head: {report.verdict.upper()}, {expected}"]
    shown: set[int] = set()
    for planted in head.planted:
        lines.append(f"  planted: {planted.what}")
        answers = [(i, r) for i, r in enumerate(report.fails) if planted.answered_by(r)]
        if not answers:
            lines.append(f"      -> NOT CAUGHT (expected {', '.join(planted.rule_ids)})")
        for i, reason in answers:
            shown.add(i)
            lines.append(_reason(reason))
    rest = [r for i, r in enumerate(report.fails) if i not in shown]
    if rest:
        lines.append("  also:")
        lines.extend(_reason(r) for r in rest)
    if judgement.missing:
        lines.append(f"  missing rule ids: {', '.join(sorted(judgement.missing))}")
    if judgement.unexpected:
        lines.append(f"  unexpected rule ids: {', '.join(sorted(judgement.unexpected))}")
    if report.verdict == "pass":
        for step in steps:
            summary = " ".join(step.summary.split())
            lines.append(f"  {step.step} {step.state} in {step.seconds:.1f}s: {summary}")
    return "\n".join(lines) + "\n"
