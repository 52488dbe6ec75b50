"""`lanegate plan --base REF`: plan the property lane's mutants and the flake lane's test files once,
split into shards, and write DIR/plan.json for the shard jobs (`--shard K/N --plan FILE`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from lanegate.cli.common import add_repo_arguments, out_dir, repo_and_policy
from lanegate.diff import classify_diff
from lanegate.lanes.property.plant import policy_draw
from lanegate.sharding.plan import PLAN_NAME, build_plan, parse_count, write_plan

COMMAND = "plan"
HELP = "plan the mutants and replayed test files once, in shards, and write plan.json"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_repo_arguments(parser)
    parser.add_argument("--base", required=True, help="base ref of the pull request")
    parser.add_argument("--head", default="HEAD", help="head ref (default: HEAD)")
    parser.add_argument(
        "--out", type=Path, default=Path(".lanegate"), help="directory of plan.json"
    )
    parser.add_argument(
        "--property-shards", default="1", metavar="N", help="property lane shards (1-32)"
    )
    parser.add_argument("--flake-shards", default="1", metavar="N", help="flake lane shards (1-32)")


def run(args: argparse.Namespace) -> int:
    property_shards = parse_count(args.property_shards, "--property-shards")
    flake_shards = parse_count(args.flake_shards, "--flake-shards")
    repo, policy = repo_and_policy(args)
    summary = classify_diff(repo, args.base, policy, args.head)
    plan = build_plan(
        repo,
        summary,
        policy,
        property_shards=property_shards,
        flake_shards=flake_shards,
        draw=policy_draw(policy),
    )
    path = out_dir(repo, args.out) / PLAN_NAME
    write_plan(path, plan)
    for lane in (plan.property, plan.flake):
        unit = "mutant(s)" if lane.lane == "property" else "test file(s)"
        sizes = ", ".join(str(len(s)) for s in lane.slices())
        print(
            f"{lane.lane}: {len(lane.items)} {unit} in {lane.shards} shard(s) ({sizes}); "
            f"plan {lane.digest}"
        )
    print(f"wrote {path}")
    return 0
