"""A score report seen as GitHub shows it: check-run conclusion, title, summary, annotations, comment."""

from __future__ import annotations

from lanegate.github.client import Annotation, AnnotationLevel, CheckRunRequest, Conclusion
from lanegate.ledgers.models import ReportReason, ScoreReport
from lanegate.reporting.text import split_warns

COMMENT_MARKER = "<!-- lanegate:lane-b -->"
CHECK_NAME = "lanegate / lane B"
_LEVELS: dict[str, AnnotationLevel] = {"error": "failure", "warning": "warning", "note": "notice"}


def _line(reason: ReportReason) -> str:
    where = f" (`{reason.path}:{reason.line}`)" if reason.path and reason.line else ""
    where = where or (f" (`{reason.path}`)" if reason.path else "")
    fix = f" Fix: {reason.fix}" if reason.fix else ""
    return f"- **{reason.lane}** `{reason.rule_id}`: {reason.message}{where}.{fix}"


def render_summary(report: ScoreReport) -> str:
    """Markdown for the job summary, check run and comment when the scorer wrote no summary file."""
    verdict = report.verdict.upper()
    lines = [
        f"## lanegate lane B: {verdict}",
        "",
        f"Lane `{report.lane_name}`, authorship `{report.authorship}`, attempt {report.run_attempt}, "
        f"lanegate {report.lanegate_version}.",
        "",
        "| lane | verdict | fails | warns |",
        "| --- | --- | --- | --- |",
    ]
    lines += [f"| {s.lane} | {s.verdict} | {s.fails} | {s.warns} |" for s in report.lanes]
    if report.fails:
        lines += ["", "### Fails", *(_line(r) for r in report.fails)]
    warnings, follow_ups = split_warns(report)
    if warnings:
        lines += ["", "### Warnings (never a pass token)", *(_line(r) for r in warnings)]
    if follow_ups:
        lines += [
            "",
            "### Follow-ups (Lane A notes: not a fail for a diff a human owns)",
            *(_line(r) for r in follow_ups),
        ]
    return "\n".join(lines) + "\n"


def report_annotations(report: ScoreReport) -> tuple[Annotation, ...]:
    """Every fail and warning that names a file and line, as a check-run annotation."""
    out: list[Annotation] = []
    for reason in (*report.fails, *report.warns):
        if not reason.path or not reason.line:
            continue
        message = reason.message + (f"\nFix: {reason.fix}" if reason.fix else "")
        out.append(
            Annotation(
                path=reason.path,
                start_line=reason.line,
                message=message,
                title=f"lanegate/{reason.rule_id}",
                level=_LEVELS.get(reason.severity, "failure"),
            )
        )
    return tuple(out)


def check_run_request(
    report: ScoreReport, head_sha: str, summary: str, details_url: str | None = None
) -> CheckRunRequest:
    """The completed check run for a report: success only on verdict pass."""
    conclusion: Conclusion = "success" if report.verdict == "pass" else "failure"
    return CheckRunRequest(
        name=CHECK_NAME,
        head_sha=head_sha,
        conclusion=conclusion,
        title=f"{report.verdict.upper()}: {len(report.fails)} fails, "
        f"{len(split_warns(report)[0])} warnings",
        summary=summary,
        annotations=report_annotations(report),
        details_url=details_url,
    )


def comment_body(summary: str, details_url: str | None = None) -> str:
    """The sticky PR comment: the hidden marker, the summary, a link to the run when known."""
    link = f"\n[Workflow run]({details_url})\n" if details_url else ""
    return f"{COMMENT_MARKER}\n{summary.rstrip()}\n{link}"
