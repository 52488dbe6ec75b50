"""`lanegate fixture --base REF`: run the fixture lane and write DIR/fixture.json."""

from __future__ import annotations

import argparse
import sys

from lanegate.cli.common import (
    add_lane_arguments,
    lane_context,
    repo_and_policy,
)
from lanegate.lanes.fixture import run_lane
from lanegate.lanes.fixture.runner import REPORT_NAME

COMMAND = "fixture"
HELP = "hash fixtures against the base ref's lockfile, replay cases read-only, write fixture.json"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_lane_arguments(parser)


def run(args: argparse.Namespace) -> int:
    repo, policy = repo_and_policy(args)
    ctx = lane_context(args, repo, policy)
    outcome = run_lane(ctx)
    sys.stdout.write((ctx.out_dir / REPORT_NAME).read_text(encoding="utf-8"))
    print(f"wrote {outcome.ledger_path}")
    return 0 if outcome.would_pass else 1
