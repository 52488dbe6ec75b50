"""`lanegate diff --base REF`: the classified diff of base...HEAD."""

from __future__ import annotations

import argparse
import json

from lanegate.cli.common import add_repo_arguments, repo_and_policy
from lanegate.diff import classify_diff

COMMAND = "diff"
HELP = "classify the files changed by base...HEAD (tests, fixtures, lockfile, workflows, ...)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_repo_arguments(parser)
    parser.add_argument("--base", required=True, help="base ref")
    parser.add_argument("--head", default="HEAD", help="head ref (default: HEAD)")
    parser.add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int:
    repo, policy = repo_and_policy(args)
    summary = classify_diff(repo, args.base, policy, args.head)
    if args.format == "json":
        payload = {
            "base_ref": summary.base_ref,
            "base_commit": summary.base_commit,
            "merge_base": summary.merge_base,
            "head_commit": summary.head_commit,
            "digest": summary.digest,
            "files": [
                {
                    "path": f.path,
                    "change": str(f.change),
                    "old_path": f.old_path,
                    "roles": sorted(str(r) for r in f.roles),
                    "binary": f.binary,
                    "gate_input": f.is_gate_input,
                }
                for f in summary.files
            ],
        }
        print(json.dumps(payload, indent=2, ensure_ascii=False))
        return 0
    print(f"{summary.merge_base[:12]}...{summary.head_commit[:12]}: {len(summary.files)} files")
    for f in summary.files:
        moved = f" (from {f.old_path})" if f.old_path else ""
        flags = " [gate input]" if f.is_gate_input else ""
        roles = ",".join(sorted(str(r) for r in f.roles))
        print(f"{f.change:<9} {roles:<22} {f.path}{moved}{flags}")
    return 0
