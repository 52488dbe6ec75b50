"""`lanegate demo`: judge an agent-style head and an honest head of a bundled library, end to end."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from lanegate import git
from lanegate.authorship import Authorship
from lanegate.demo import bundle as demo_bundle
from lanegate.demo.scenario import BASE_BRANCH, Judgement, build_repo, heads, judge
from lanegate.demo.story import tell
from lanegate.errors import UsageError
from lanegate.ledgers.models import AuthorKind
from lanegate.policy import load_policy
from lanegate.reporting.terminal import make_display
from lanegate.run.orchestrate import RunRequest, run_all

COMMAND = "demo"
HELP = (
    "build a throwaway repo with an agent-style and an honest head, and judge both (a smoke test)"
)
NEEDS = ("pytest", "hypothesis")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--keep",
        type=Path,
        default=None,
        metavar="DIR",
        help="build in DIR (new or empty) and keep it: DIR/repo and DIR/ledgers/<head>",
    )
    parser.add_argument("--quiet", action="store_true", help="plain lines, no live display")


def _check_tools() -> None:
    missing = [name for name in NEEDS if importlib.util.find_spec(name) is None]
    if missing:
        raise UsageError(
            f"lanegate demo runs real tests and needs {', '.join(missing)} in this Python",
            hint=f"pip install {' '.join(missing)}",
        )


def _judge_all(root: Path, quiet: bool, keep: bool) -> tuple[list[Judgement], float, float]:
    material = demo_bundle.load_shipped()
    repo = root / "repo"
    commits = build_repo(material, repo)
    print(f"lanegate demo: a throwaway repository in {repo}", file=sys.stderr)
    results: list[Judgement] = []
    wall = outside = 0.0
    for head in heads(material):
        print(f"\n== {head.name} head: {head.message.splitlines()[0]}", file=sys.stderr)
        git.run_git(repo, "checkout", "-q", head.name)
        request = RunRequest(
            repo=repo,
            policy=load_policy(repo),
            base=commits[BASE_BRANCH],
            out_dir=root / "ledgers" / head.name,
            now=datetime.now(UTC),
            authorship=Authorship(AuthorKind.AGENT, "demo: an agent wrote both heads"),
        )
        display = make_display(sys.stderr, quiet=quiet)
        try:
            result = run_all(request, display)
        finally:
            display.close()
        for error in (*result.errors, *result.internal_errors):
            print(f"lanegate demo: {head.name} head: {error}", file=sys.stderr)
        judgement = judge(head, result.report)
        results.append(judgement)
        sys.stdout.write("\n" + tell(judgement, result.steps))
        if keep:
            sys.stdout.write(f"  ledgers: {result.report_path.parent}\n")
        sys.stdout.flush()
        wall += result.overhead.wall_seconds
        outside += result.overhead.outside_children_seconds or 0.0
    return results, wall, outside


def run(args: argparse.Namespace) -> int:
    _check_tools()
    started = time.monotonic()
    if args.keep is not None:
        root = args.keep.resolve()
        if root.exists() and (not root.is_dir() or any(root.iterdir())):
            raise UsageError(f"--keep {args.keep}: exists and is not an empty directory")
        results, wall, outside = _judge_all(root, args.quiet, keep=True)
    else:
        with tempfile.TemporaryDirectory(prefix="lanegate-demo-") as temp:
            results, wall, outside = _judge_all(Path(temp), args.quiet, keep=False)
    total = time.monotonic() - started
    good = all(j.as_expected for j in results)
    outcome = "both heads judged as expected" if good else "a head was NOT judged as expected"
    print(
        f"\ndemo: {outcome} in {total:.1f}s "
        f"(runs {wall:.1f}s, of which {outside:.1f}s in lanegate outside the test processes)"
    )
    return 0 if good else 1
