"""`lanegate explain RULE`: what a scorer or lint rule id means, why it fails, how to fix it."""

from __future__ import annotations

import argparse

from lanegate import oracle_reference
from lanegate.errors import UsageError
from lanegate.scoring.table import TABLE
from lanegate.workflow_lint.registry import RULES_BY_ID

COMMAND = "explain"
HELP = "explain a rule id of the scorer (e.g. property-mutant-budget) or of lint"
# rules whose fix is to call an oracle: their explanation lists the oracles there are
ORACLE_RULES = frozenset({"property-missing-oracle", "property-oracle-not-reached"})


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rule", metavar="RULE", help="a rule id as printed in a report")


def run(args: argparse.Namespace) -> int:
    wanted = str(args.rule).removeprefix("lanegate/")
    rows = [row for row in TABLE if row.rule_id == wanted]
    for row in rows:
        lane = row.lane.value if row.lane is not None else "the ledger's lane"
        print(f"{row.rule_id} (scorer, {lane}, {row.severity.value})")
        print(f"  fails when: {row.observation}")
        reading = " (read its own way)" if row.lane_a_check is not None else ""
        print(
            f"  columns:    Lane B (agent diff) {row.lane_b_column.value}; "
            f"Lane A (human diff) {row.lane_a_column.value}{reading}"
        )
        print(f"  fix:        {row.fix}")
        if row.rule_id in ORACLE_RULES:
            print(f"  oracles:    {', '.join(oracle_reference.names())} (lanegate.oracles)")
            print("              `lanegate oracles --list`: each with its signature and an example")
        print(f"  docs:       docs/score-rules.md#{row.rule_id}")
    rule = RULES_BY_ID.get(wanted)
    if rule is not None:
        print(f"{rule.id} (lint)")
        print(f"  finds:      {rule.summary}")
        print(f"  fix:        {rule.fix}")
        print(f"  docs:       {rule.help_anchor}")
    if not rows and rule is None:
        near = sorted(
            {r.rule_id for r in TABLE} | set(RULES_BY_ID),
            key=lambda name: (not name.startswith(wanted.split("-")[0]), name),
        )[:5]
        raise UsageError(
            f"{wanted}: no such rule id",
            hint=f"known ids include {', '.join(near)}; `lanegate lint --list-rules` lists lint's",
        )
    return 0
