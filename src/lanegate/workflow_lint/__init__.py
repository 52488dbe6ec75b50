"""`lanegate lint`: finds every retry and failure-forgiving construct in workflows, local actions,
reusable workflows, pytest configuration, dependency files and test code (SPEC section 7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from lanegate.errors import UsageError
from lanegate.model import Finding
from lanegate.policy import Policy
from lanegate.workflow_lint.discover import Discovered, discover, kind_of
from lanegate.workflow_lint.exemptions import apply
from lanegate.workflow_lint.parallel import lint_all, worker_count
from lanegate.workflow_lint.plugin_use import mark_dormant
from lanegate.workflow_lint.rule import FileKind
from lanegate.workflow_lint.scope import GATING, Scope
from lanegate.workflow_lint.session import Session

if TYPE_CHECKING:  # the ledger models cost ~0.1 s to import; only the json output needs them
    from lanegate.ledgers.models import LintFindingRecord, LintReport

__all__ = ["LintResult", "lint_paths", "Mode"]

Mode = Literal["lane-b", "lane-a"]


@dataclass(frozen=True, slots=True)
class LintResult:
    """What one lint run found. `findings` count (they fail the lane); `exempted` were covered by an
    unexpired Lane A exemption and are reported but do not count."""

    findings: tuple[Finding, ...]
    exempted: tuple[Finding, ...]
    files_scanned: int
    mode: Mode
    # `path[:line]: why` of what was listed, not linted: workflows GitHub never runs (under a nested
    # `.github/workflows`, e.g. a vendored repository) and test scripts in PowerShell or cmd
    skipped: tuple[str, ...] = ()
    # the gate's lint (`--gate`): each finding's scope; a path lint's findings are all in its mode's
    scopes: Mapping[Finding, Scope] = field(default_factory=dict)
    gate: bool = False

    def scope_of(self, finding: Finding) -> Scope:
        return self.scopes.get(finding, Scope(self.mode))

    @property
    def gating(self) -> tuple[Finding, ...]:
        """The findings that fail: in the gate, those in Lane B's scope or added by the diff."""
        if not self.gate:
            return self.findings
        return tuple(f for f in self.findings if self.scope_of(f) in GATING)

    @property
    def clean(self) -> bool:
        return not self.gating

    def to_report(self, version: str) -> LintReport:
        """lint.json (schema "lint"): every finding, exempted ones flagged as such."""
        from lanegate.ledgers.models import LINT_WRITER, SCHEMA_VERSION, LintReport

        records = [_record(f, self.scope_of(f), exempted=False) for f in self.findings] + [
            _record(f, self.scope_of(f), exempted=True) for f in self.exempted
        ]
        records.sort(key=lambda r: (r.path, r.line or 0, r.column or 0, r.rule_id, r.exempted))
        return LintReport(
            schema_version=SCHEMA_VERSION,
            writer=LINT_WRITER,
            lanegate_version=version,
            mode=self.mode,
            files_scanned=self.files_scanned,
            gate=self.gate,
            findings=tuple(records),
        )


def _clip(text: str, limit: int = 4000) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _record(finding: Finding, scope: Scope, *, exempted: bool) -> LintFindingRecord:
    from lanegate.ledgers.models import LintFindingRecord

    location = finding.primary
    return LintFindingRecord(
        rule_id=finding.rule_id,
        severity=str(finding.severity),
        message=_clip(finding.message),
        path=_clip(location.path),
        line=location.line,
        column=location.column,
        fix=_clip(finding.fix),
        exempted=exempted,
        scope=str(scope),
    )


def _root_of(path: Path) -> Path:
    """The repository a file belongs to: the nearest parent with `.git` or `.github`, else its folder."""
    for parent in path.parents:
        if (parent / ".git").exists() or (parent / ".github").is_dir():
            return parent
    return path.parent


def _file_kind(path: Path, relative: str) -> FileKind:
    kind = kind_of(relative)
    if kind is not None:
        return kind
    if path.suffix in (".yml", ".yaml"):
        return FileKind.WORKFLOW
    if path.suffix == ".py":
        return FileKind.PYTHON
    if path.suffix in (".txt", ".in"):
        return FileKind.REQUIREMENTS
    raise UsageError(
        f"{path}: not a file lint reads (workflow, action, pytest config, requirements, Python test)"
    )


def _active(target: Discovered) -> bool:
    """False for a workflow under a nested `.github/workflows`: GitHub only runs the root's."""
    return target.kind is not FileKind.WORKFLOW or target.path.startswith(".github/workflows/")


def active_targets(targets: Sequence[Discovered], skipped: list[str]) -> list[Discovered]:
    """The discovered files GitHub or pytest use; the others are listed in `skipped`."""
    skipped.extend(
        f"{d.path}: not an active workflow (GitHub only runs the root's .github/workflows)"
        for d in targets
        if not _active(d)
    )
    return [d for d in targets if _active(d)]


def sort_key(finding: Finding) -> tuple[str, int, int, str]:
    p = finding.primary
    return (p.path, p.line or 0, p.column or 0, finding.rule_id)


def lint_paths(
    paths: Sequence[Path],
    *,
    mode: Mode = "lane-b",
    policy: Policy | None = None,
    today: date,
    jobs: int | None = None,
) -> LintResult:
    """Lint directories (discovering what to read) and single files; paths in findings are relative to
    each directory, or to a file's repository root.

    `jobs` is the number of processes (default: one per core for large directories).
    In lane-b nothing is exempted. In lane-a an unexpired `[lint] exemptions` entry of `policy` exempts
    the findings it covers, and every expired entry is a finding.
    """
    if mode not in ("lane-b", "lane-a"):
        raise UsageError(f"mode: {mode!r} is not lane-b or lane-a")
    if not paths:
        raise UsageError("no path to lint")
    findings: list[Finding] = []
    skipped: list[str] = []
    scanned: set[tuple[Path, str]] = set()
    sessions: dict[Path, Session] = {}
    for given in paths:
        if not given.exists():
            raise UsageError(f"{given}: no such file or directory")
        absolute = given.resolve()
        github = next((p for p in (absolute, *absolute.parents) if p.name == ".github"), None)
        if absolute.is_dir() and github is not None:
            # `lanegate lint .github`: paths stay relative to the repository, as GitHub shows them
            root = github.parent
            inside = absolute.relative_to(root).as_posix() + "/"
            targets = [d for d in discover(root) if d.path.startswith(inside)]
        elif absolute.is_dir():
            root = absolute
            targets = discover(root)
        else:
            root = _root_of(absolute)
            relative = absolute.relative_to(root).as_posix()
            targets = [Discovered(relative, _file_kind(absolute, relative))]
        if absolute.is_dir():
            targets = active_targets(targets, skipped)
        session = sessions.setdefault(root, Session(root))
        lint_all(session, targets, worker_count(len(targets), jobs))
    for root, session in sessions.items():
        skipped.extend(session.not_analysed)
        of_root: list[Finding] = []
        for relative, file_findings in session.results.items():
            if (root, relative) not in scanned:
                scanned.add((root, relative))
                of_root.extend(file_findings)
        findings.extend(mark_dormant(of_root)[0])
    counted: tuple[Finding, ...] = tuple(findings)
    exempted: tuple[Finding, ...] = ()
    if mode == "lane-a" and policy is not None and policy.lint.exemptions:
        applied = apply(
            findings, policy.lint.exemptions, today=today, policy_path=policy.source.split(" ")[0]
        )
        counted = applied.counted + applied.expired
        exempted = applied.exempted
    unique = sorted(set(counted), key=sort_key)
    return LintResult(
        tuple(unique),
        tuple(sorted(set(exempted), key=sort_key)),
        len(scanned),
        mode,
        tuple(sorted(set(skipped))),
    )
