"""`lanegate schema NAME`: print a shipped JSON Schema."""

from __future__ import annotations

import argparse
import sys

from lanegate.ledgers import schemas

COMMAND = "schema"
HELP = "print the JSON Schema of a ledger or report (" + ", ".join(schemas.SCHEMAS) + ")"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", help="one of: " + ", ".join(schemas.SCHEMAS))


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(schemas.shipped_text(args.name))
    return 0
