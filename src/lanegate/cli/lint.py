"""`lanegate lint [PATH...]`: retry and failure-forgiving constructs in workflows and test config."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import tomllib
from datetime import UTC, date, datetime
from pathlib import Path

from lanegate import git
from lanegate._version import __version__
from lanegate.errors import GitError, PolicyError, UsageError
from lanegate.policy import POLICY_FILE, PYPROJECT, Policy, load_policy
from lanegate.workflow_lint import LintResult, lint_paths
from lanegate.workflow_lint.bounded_parse import TooDeep, parse_toml
from lanegate.workflow_lint.output import FORMATS
from lanegate.workflow_lint.output.text import summary_line
from lanegate.workflow_lint.registry import RULES
from lanegate.workflow_lint.session import MAX_FILE_BYTES

COMMAND = "lint"
HELP = "find retry and failure-forgiving constructs in workflows, actions and test config (exit 1 on findings)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="directories or files (default: the repository root)",
    )
    parser.add_argument(
        "--format", choices=sorted(FORMATS), default="text", help="output format (default: text)"
    )
    parser.add_argument(
        "--mode",
        choices=("lane-b", "lane-a"),
        default="lane-b",
        help="lane-b: nothing can be exempted (default); lane-a: dated policy exemptions apply",
    )
    parser.add_argument(
        "--output", type=Path, default=None, help="write the report to FILE instead of stdout"
    )
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help="policy file (default: lanegate.toml or [tool.lanegate] of the root)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="processes to lint with (default: one per core for large directories)",
    )
    parser.add_argument(
        "--list-rules", action="store_true", help="print every rule id with its summary and exit"
    )
    parser.add_argument(
        "--gate",
        action="store_true",
        help="the gate's lint of one repository: findings in what Lane B runs or added by the diff "
        "(--base) fail; the rest is Lane A, reported (its dated exemptions apply)",
    )
    parser.add_argument(
        "--base", default=None, help="with --gate: the pull request's base commit or ref"
    )
    parser.add_argument(
        "--caller",
        action="append",
        default=[],
        metavar="WORKFLOW",
        help="with --gate: a workflow that runs Lane B (also found by its `uses:` of lane-b.yml)",
    )
    parser.add_argument(
        "--all-tests",
        action="store_true",
        help="with --gate: judge hand-written retries in every test module, not only the diff's",
    )
    parser.add_argument(
        "--today",
        default=None,
        help="date exemptions are checked against, YYYY-MM-DD (default: today, UTC)",
    )


def _repository_of(path: Path) -> Path:
    """The git repository around `path` (where the policy lives), else the folder itself."""
    folder = path if path.is_dir() else path.parent
    try:
        return git.repo_root(folder)
    except GitError:
        return folder


def _today(text: str | None) -> date:
    if text is None:
        return datetime.now(UTC).date()
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise UsageError(f"--today: {text!r} is not a date (YYYY-MM-DD)") from None


def _write(path: Path, content: str) -> None:
    """Write atomically next to the target, so a failed write never leaves half a report."""
    target = path.resolve()
    if target.is_dir():
        raise UsageError(f"--output: {path} is a directory")
    if not target.parent.is_dir():
        raise UsageError(f"--output: folder {target.parent} does not exist")
    if target.exists() and not target.is_file():
        # a device or a pipe (`/dev/null`, `/dev/stdout`): written through, never replaced (as root,
        # a rename over /dev/null made it a regular file for every process on the machine)
        try:
            with open(target, "w", encoding="utf-8") as stream:
                stream.write(content)
        except OSError as exc:
            raise UsageError(f"--output: cannot write {path}: {exc.strerror}") from None
        return
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(content)
        os.replace(temporary, target)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise UsageError(f"--output: cannot write {path}: {exc.strerror}") from None


def _load_policy(repo: Path, config: Path | None) -> Policy:
    """The repository's policy; the defaults when the only candidate, pyproject.toml, is not TOML
    or is over the lint's size cap (lint reports that file itself as `unparseable-file` or
    `oversized-file`, naming it, so the run fails on it either way)."""
    try:
        return load_policy(repo, config)
    except PolicyError:
        if config is not None or (repo / POLICY_FILE).is_file():
            raise
        try:
            if (repo / PYPROJECT).stat().st_size > MAX_FILE_BYTES:
                return Policy()
            parse_toml((repo / PYPROJECT).read_text(encoding="utf-8", errors="replace"))
        except (tomllib.TOMLDecodeError, TooDeep, OSError):
            return Policy()
        raise


def _gate(args: argparse.Namespace, paths: list[Path], policy: Policy) -> LintResult:
    if args.base is None:
        raise UsageError(
            "--gate needs --base: what the diff adds is judged strictly",
            hint="pass the pull request's base commit, e.g. --base origin/main",
        )
    if len(paths) != 1 or not paths[0].is_dir():
        raise UsageError("--gate lints one repository: give its directory (or no path)")
    if args.mode != "lane-b":
        raise UsageError("--gate is Lane B's lint: --mode lane-a does not go with it")
    from lanegate.workflow_lint.gate import lint_gate

    return lint_gate(
        paths[0],
        base=args.base,
        policy=policy,
        today=_today(args.today),
        callers=args.caller,
        all_tests=args.all_tests,
        jobs=args.jobs,
    )


def run(args: argparse.Namespace) -> int:
    if args.list_rules:
        for rule in RULES:
            print(f"{rule.id:<28} {rule.summary}")
        return 0
    paths = list(args.paths) or [_repository_of(Path.cwd())]
    for path in paths:
        if not path.exists():
            raise UsageError(f"{path}: no such file or directory")
    # the policy is read (and so validated) on every run: a malformed lanegate.toml is exit 2
    loaded = _load_policy(_repository_of(paths[0].resolve()), args.config)
    policy: Policy | None = loaded if args.mode == "lane-a" or args.config is not None else None
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs: must be at least 1")
    if args.gate:
        result = _gate(args, paths, loaded)
    else:
        if args.base is not None or args.caller or args.all_tests:
            raise UsageError("--base, --caller and --all-tests go with --gate")
        result = lint_paths(
            paths, mode=args.mode, policy=policy, today=_today(args.today), jobs=args.jobs
        )
    if result.files_scanned == 0:  # nothing read is no evidence of a clean configuration
        raise UsageError(
            f"{', '.join(str(p) for p in paths)}: nothing to lint "
            "(no workflow, action or test configuration found)",
            hint="run lanegate lint in a repository, or name its files",
        )
    rendered = FORMATS[args.format](result, __version__)
    if args.output is not None:
        _write(args.output, rendered)
        print(f"{summary_line(result)}; wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(rendered)
    return 0 if result.clean else 1
