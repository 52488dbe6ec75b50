"""`lanegate promote`: record a survivor of `lanegate candidates` for Lane A, or verify a record."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

from lanegate.candidates.promotion import promote, verify
from lanegate.errors import UsageError

COMMAND = "promote"
HELP = "write promotion.json for a survivor of `lanegate candidates`, or verify one (--verify)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("head", nargs="?", default=None, help="the survivor's head commit (prefix)")
    parser.add_argument(
        "--from",
        dest="batch",
        type=Path,
        default=Path(".lanegate-candidates"),
        help="the batch's output folder (default: .lanegate-candidates/)",
    )
    parser.add_argument(
        "--verify", type=Path, default=None, metavar="FILE", help="check a promotion.json"
    )
    parser.add_argument(
        "--expect-head",
        default=None,
        help="with --verify (required): the commit being merged",
    )
    parser.add_argument(
        "--expect-base", default=None, help="with --verify (required): the base merged into"
    )


def run(args: argparse.Namespace) -> int:
    if args.verify is not None:
        if args.head is not None:
            raise UsageError("--verify FILE takes no head; use --expect-head")
        record = verify(args.verify, head=args.expect_head or "", base=args.expect_base or "")
        print(
            f"promotion verified: {record.head_commit} judged against {record.base_commit}, "
            f"score report {record.score_report_digest}"
        )
        return 0
    if args.head is None:
        raise UsageError("name the survivor to promote", hint="lanegate promote SHA [--from DIR]")
    path = promote(args.batch, args.head, datetime.now(UTC))
    print(f"wrote {path}", file=sys.stderr)
    return 0
