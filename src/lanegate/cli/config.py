"""`lanegate config`: print the effective policy and where each value came from."""

from __future__ import annotations

import argparse
import json

from lanegate.cli.common import add_repo_arguments, repo_and_policy
from lanegate.ledgers.codec import to_json

COMMAND = "config"
HELP = "print the effective policy and the origin of each value"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_repo_arguments(parser)
    parser.add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int:
    _, policy = repo_and_policy(args)
    rows = policy.items()
    if args.format == "json":
        payload = {key: {"value": to_json(value), "origin": origin} for key, value, origin in rows}
        print(json.dumps({"source": policy.source, "keys": payload}, indent=2, default=str))
        return 0
    print(f"# policy source: {policy.source}")
    width = max(len(key) for key, _, _ in rows)
    for key, value, origin in rows:
        shown = json.dumps(to_json(value), default=str)
        print(f"{key:<{width}}  {shown}  ({origin})")
    return 0
