"""`lanegate lock [--check]`: write or verify the fixtures lockfile from the working tree."""

from __future__ import annotations

import argparse

from lanegate.cli.common import add_repo_arguments, repo_and_policy
from lanegate.lanes.fixture import locking
from lanegate.lanes.fixture.report import shown

COMMAND = "lock"
HELP = "write tests/fixtures.lock.json from the fixture files (--check: exit 1 if it would change)"
LISTED = 20


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_repo_arguments(parser)
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 when the lockfile is missing or out of date",
    )


def run(args: argparse.Namespace) -> int:
    repo, policy = repo_and_policy(args)
    plan = locking.plan(repo, policy.fixtures)
    if not plan.fixtures_exist:
        print(f"no fixture dir {policy.fixtures.dir}: the lockfile has no entries")
    elif not policy.fixtures.cases:
        # the fixture lane replays cases; locked bytes alone fail fixture-no-cases on every branch
        print(
            f"note: {policy.fixtures.dir} is locked but the policy declares no [[fixtures.cases]] "
            "to replay against it: add one per fixture the tests check (docs/fixture-lane.md), "
            "or every pull request fails fixture-no-cases"
        )
    if plan.up_to_date:
        print(f"{plan.key}: up to date ({plan.new_bytes.count(b'sha256:')} files); nothing written")
        return 0
    for label, keys in (
        ("added", plan.added),
        ("removed", plan.removed),
        ("changed", plan.changed),
    ):
        for key in keys[:LISTED]:
            print(f"{label:<8} {shown(key)}")
        if len(keys) > LISTED:
            print(f"{label:<8} ... and {len(keys) - LISTED} more")
    what = f"{len(plan.added)} added, {len(plan.removed)} removed, {len(plan.changed)} changed"
    if plan.old_bytes is not None and not (plan.added or plan.removed or plan.changed):
        what = "same digests, bytes not canonical"
    if args.check:
        verb = "is missing" if plan.old_bytes is None else "is out of date"
        print(f"{plan.key}: {verb} ({what}); run `lanegate lock`")
        return 1
    locking.write(plan)
    print(f"{plan.key}: written ({what})")
    return 0
