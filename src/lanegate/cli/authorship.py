"""`lanegate authorship`: agent or human, decided from a pull_request event and the policy."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lanegate.authorship import decide
from lanegate.cli.common import add_repo_arguments, repo_and_policy
from lanegate.errors import UsageError

COMMAND = "authorship"
HELP = "print agent or human for a pull_request event (unknown is agent) and set output authorship"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_repo_arguments(parser)
    parser.add_argument(
        "--event", type=Path, required=True, help="event payload (GITHUB_EVENT_PATH)"
    )
    parser.add_argument(
        "--pr-body-out",
        type=Path,
        default=None,
        help="also write the PR body to FILE (empty when the PR has none), for `flake --pr-body`",
    )


def run(args: argparse.Namespace) -> int:
    from lanegate.github.event import read_event
    from lanegate.github.outputs import set_output

    _, policy = repo_and_policy(args)
    event = read_event(args.event)
    decision = decide(policy.authorship, event.facts)
    if args.pr_body_out is not None:
        if args.pr_body_out.exists():
            raise UsageError(
                f"--pr-body-out {args.pr_body_out}: exists; lanegate never overwrites it"
            )
        args.pr_body_out.write_text(event.body or "", encoding="utf-8")
    print(decision.kind.value)
    print(f"lanegate authorship: {decision.kind.value}: {decision.reason}", file=sys.stderr)
    set_output("authorship", decision.kind.value)
    return 0
