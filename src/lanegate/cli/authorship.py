"""`lanegate authorship`: agent or human, decided from a pull_request event and the policy."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lanegate.authorship import decide
from lanegate.cli.common import add_repo_arguments, repo_and_policy
from lanegate.github import actions
from lanegate.github.event import read_event

COMMAND = "authorship"
HELP = "print agent or human for a pull_request event (unknown is agent) and set output authorship"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_repo_arguments(parser)
    parser.add_argument(
        "--event", type=Path, required=True, help="event payload (GITHUB_EVENT_PATH)"
    )


def run(args: argparse.Namespace) -> int:
    _, policy = repo_and_policy(args)
    event = read_event(args.event)
    decision = decide(policy.authorship, event.facts)
    print(decision.kind.value)
    print(f"lanegate authorship: {decision.kind.value}: {decision.reason}", file=sys.stderr)
    actions.set_output("authorship", decision.kind.value)
    return 0
