"""The demo scenario: build a throwaway repository (base, agent head, honest head) and judge each head."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lanegate import git
from lanegate.demo.bundle import Bundle
from lanegate.errors import UsageError
from lanegate.ledgers.models import ReportReason, ScoreReport

BASE_BRANCH = "main"
HEADS = ("agent", "honest")
_GIT_IDENTITY = (
    "-c",
    "user.name=lanegate demo",
    "-c",
    "user.email=demo@lanegate.invalid",
    "-c",
    "commit.gpgsign=false",
    "-c",
    "core.hooksPath=/dev/null",
)


@dataclass(frozen=True, slots=True)
class Planted:
    """One problem planted in a head commit, and the rule ids that must answer it."""

    what: str
    rule_ids: tuple[str, ...]
    paths: tuple[str, ...] = ()

    def answered_by(self, reason: ReportReason) -> bool:
        """True when `reason` is one of this problem's rule ids and (if paths are given) about them."""
        if reason.rule_id not in self.rule_ids:
            return False
        if not self.paths:
            return True
        where = f"{reason.path or ''} {reason.message}"
        return any(path in where for path in self.paths)


@dataclass(frozen=True, slots=True)
class HeadSpec:
    """A head commit: its message, the verdict it must get and every rule id that must fire."""

    name: str
    message: str
    verdict: str
    planted: tuple[Planted, ...]
    also: tuple[str, ...]

    @property
    def expected_rule_ids(self) -> frozenset[str]:
        """Exactly the rule ids the report's fails must carry."""
        ids = {rule for item in self.planted for rule in item.rule_ids}
        return frozenset(ids | set(self.also))


@dataclass(frozen=True, slots=True)
class Judgement:
    """How lanegate judged one head against what the scenario expects."""

    head: HeadSpec
    report: ScoreReport
    fired: frozenset[str]

    @property
    def missing(self) -> frozenset[str]:
        return self.head.expected_rule_ids - self.fired

    @property
    def unexpected(self) -> frozenset[str]:
        return self.fired - self.head.expected_rule_ids

    @property
    def as_expected(self) -> bool:
        return self.report.verdict == self.head.verdict and not self.missing and not self.unexpected


def _strings(value: Any, where: str, *, empty: bool = False) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise UsageError(f"demo scenario: {where}: expected a list of strings")
    if not value and not empty:
        raise UsageError(f"demo scenario: {where}: must not be empty")
    return tuple(value)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise UsageError(f"demo scenario: {where}: expected a non-empty string")
    return value


def heads(bundle: Bundle) -> tuple[HeadSpec, ...]:
    """The head commits of the scenario, in order."""
    found = []
    for name in HEADS:
        table = bundle.scenario.get(name)
        if not isinstance(table, dict):
            raise UsageError(f"demo scenario: [{name}]: missing")
        planted = tuple(
            Planted(
                what=_text(item.get("what"), f"{name}.planted[{i}].what"),
                rule_ids=_strings(item.get("rule_ids"), f"{name}.planted[{i}].rule_ids"),
                paths=_strings(item.get("paths", []), f"{name}.planted[{i}].paths", empty=True),
            )
            for i, item in enumerate(table.get("planted", []))
        )
        verdict = table.get("verdict")
        if verdict not in ("pass", "fail"):
            raise UsageError(f"demo scenario: {name}.verdict: expected pass or fail")
        found.append(
            HeadSpec(
                name=name,
                message=_text(table.get("message"), f"{name}.message"),
                verdict=verdict,
                planted=planted,
                also=_strings(table.get("also", []), f"{name}.also", empty=True),
            )
        )
    return tuple(found)


def _write_layer(repo: Path, files: dict[str, str]) -> None:
    for rel, text in sorted(files.items()):
        target = repo / rel
        if ".." in Path(rel).parts or Path(rel).is_absolute():
            raise UsageError(f"demo bundle: {rel}: not a relative path inside the repository")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="")


def _commit(repo: Path, message: str) -> str:
    git.run_git(repo, "add", "-A")
    git.run_git(repo, *_GIT_IDENTITY, "commit", "-q", "--no-verify", "-m", message)
    return git.resolve_commit(repo, "HEAD")


def build_repo(bundle: Bundle, repo: Path) -> dict[str, str]:
    """Create the demo repository in `repo` (new or empty); return branch name -> commit."""
    repo.mkdir(parents=True, exist_ok=True)
    if any(repo.iterdir()):
        raise UsageError(f"{repo}: not empty; the demo builds its repository in a new directory")
    git.run_git(repo, "init", "-q")
    git.run_git(repo, "symbolic-ref", "HEAD", f"refs/heads/{BASE_BRANCH}")
    _write_layer(repo, bundle.layers["base"])
    base_message = bundle.scenario.get("base", {}).get("message", "base")
    commits = {BASE_BRANCH: _commit(repo, str(base_message))}
    for head in heads(bundle):
        git.run_git(repo, "checkout", "-q", "-b", head.name, BASE_BRANCH)
        _write_layer(repo, bundle.layers[head.name])
        commits[head.name] = _commit(repo, head.message)
    git.run_git(repo, "checkout", "-q", BASE_BRANCH)
    return commits


def judge(head: HeadSpec, report: ScoreReport) -> Judgement:
    """Compare a report with the head's expectations."""
    return Judgement(head=head, report=report, fired=frozenset(r.rule_id for r in report.fails))
