"""`lanegate oracles --base REF`: the oracle check alone; one line per rejected test."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from lanegate import oracle_reference
from lanegate.cli.common import add_repo_arguments, add_sandbox_argument, repo_and_policy
from lanegate.diff import classify_diff
from lanegate.errors import UsageError
from lanegate.lanes.base_policy import trusted_sandbox
from lanegate.lanes.collection import changed_test_files
from lanegate.lanes.flake.collect import collect
from lanegate.lanes.property.runner import check_oracles
from lanegate.sandbox import open_sandbox

COMMAND = "oracles"
HELP = (
    "check that new and changed tests call a property oracle on their own inputs; "
    "--list: every oracle with its signature and an example"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_repo_arguments(parser)
    parser.add_argument("--base", default=None, help="base ref of the pull request")
    parser.add_argument(
        "--list",
        action="store_true",
        help="print every oracle of lanegate.oracles with its signature and an example, and exit",
    )
    parser.add_argument("--head", default="HEAD", help="head ref (default: HEAD)")
    add_sandbox_argument(parser)


def run(args: argparse.Namespace) -> int:
    if args.list:
        if args.base is not None:
            raise UsageError(
                "--list with --base: --list prints the reference, --base checks a diff"
            )
        print(oracle_reference.render(), end="")
        return 0
    if args.base is None:
        raise UsageError(
            "--base is required to check a diff",
            hint="lanegate oracles --base main, or --list for the oracles there are",
        )
    repo, policy = repo_and_policy(args)
    summary = classify_diff(repo, args.base, policy, args.head)
    with (
        open_sandbox(
            repo,
            trusted_sandbox(repo, args.base, args.head, policy, args.config),
            enabled=not args.no_sandbox,
        ) as sandbox,
        tempfile.TemporaryDirectory(prefix="lanegate-collect-") as work,
    ):
        collection = collect(
            repo,
            [f.path for f in changed_test_files(repo, summary)],
            policy.lane.forbidden_pytest_plugins,
            policy.lane.max_wall_seconds,
            Path(work),
            sandbox=sandbox,
        )
    check = check_oracles(repo, summary, policy, collection)
    for r in check.rejections:
        print(f"{r.path}:{r.line}: {r.test}: {r.reason}")
    # the rule's unit is the file: it fails when none of its new tests calls an oracle
    satisfied = {node.split("::", 1)[0] for node in check.passed}
    failing = sorted({r.path for r in check.rejections} - satisfied)
    for path in failing:
        print(f"{path}: no test of this file calls an oracle on its own inputs")
    print(
        f"{len(check.test_files)} test file(s), {len(check.passed)} test(s) call an oracle, "
        f"{len(check.rejections)} rejected, {len(failing)} file(s) without an oracle test"
    )
    return 1 if failing else 0
