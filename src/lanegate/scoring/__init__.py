"""The scorer (SPEC 5): the decision table as data, per-lane evaluation, and the pure `score`."""

from lanegate.scoring.evidence import (
    FailureKind,
    LedgerSlot,
    LintSlot,
    LoadedLedger,
    LoadedLint,
    LoadFailure,
    RuleContext,
    ScoreInputs,
)
from lanegate.scoring.inputs import (
    ledger_from_bytes,
    ledger_from_file,
    ledgers_from_dir,
    lint_from_bytes,
    lint_from_file,
)
from lanegate.scoring.property_rules import required_mutant_budget
from lanegate.scoring.score import evaluate, lane_reasons, score, verdict_of
from lanegate.scoring.table import RULES, TABLE, Row, Scope

__all__ = [
    "RULES",
    "TABLE",
    "FailureKind",
    "LedgerSlot",
    "LintSlot",
    "LoadFailure",
    "LoadedLedger",
    "LoadedLint",
    "Row",
    "RuleContext",
    "ScoreInputs",
    "Scope",
    "evaluate",
    "lane_reasons",
    "ledger_from_bytes",
    "ledger_from_file",
    "ledgers_from_dir",
    "lint_from_bytes",
    "lint_from_file",
    "required_mutant_budget",
    "score",
    "verdict_of",
]
