"""`lanegate coverage-map build|key`: build the base's coverage map, or print the key a lane expects."""

from __future__ import annotations

import argparse
from pathlib import Path

from lanegate import git
from lanegate.cli.common import add_repo_arguments, add_sandbox_argument, repo_and_policy
from lanegate.lanes.property.baseline import pytest_flags
from lanegate.lanes.property.map_build import build_map
from lanegate.lanes.property.map_file import file_name, write_map
from lanegate.lanes.property.map_key import map_key
from lanegate.sandbox import open_sandbox

COMMAND = "coverage-map"
HELP = "build the coverage map of the checked-out default-branch commit, or print a map's key"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    sub.required = True
    build = sub.add_parser(
        "build", help="trace the whole suite of HEAD (a clean default-branch checkout)"
    )
    add_repo_arguments(build)
    build.add_argument(
        "--out", type=Path, required=True, help="directory for the map (outside the repository)"
    )
    add_sandbox_argument(build)
    key = sub.add_parser("key", help="print the key digest and file name a lane expects for --base")
    add_repo_arguments(key)
    key.add_argument("--base", required=True, help="base ref of the pull request")
    key.add_argument("--head", default="HEAD", help="head ref (default: HEAD)")


def run(args: argparse.Namespace) -> int:
    repo, policy = repo_and_policy(args)
    if args.action == "key":
        base = git.merge_base(repo, args.base, args.head)
        expected = map_key(repo, base, pytest_flags(policy))
        print(f"{expected.digest} {file_name(expected)}")
        return 0
    out = args.out if args.out.is_absolute() else Path.cwd() / args.out
    sandbox = open_sandbox(repo, policy.sandbox, enabled=not args.no_sandbox, hidden=(out,))
    try:
        data = build_map(repo, policy, sandbox=sandbox)
    finally:
        sandbox.close()
    path = write_map(out, data)
    reached = sum(1 for t in data.tests.values() if t.reached)
    print(
        f"coverage map of {data.key.base_commit[:12]}: {len(data.tests)} tests "
        f"({reached} reach traced code), {len(data.functions)} functions, "
        f"{len(data.traced_files)} files traced, {data.build_seconds:.1f} s"
    )
    print(f"key {data.key.digest}")
    print(f"wrote {path} ({path.stat().st_size} bytes)")
    return 0
