"""Reports a Lane A lint exemption in the policy has expired (the lint session raises these findings itself)."""

from __future__ import annotations

from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import Rule


def check(ctx: FileContext) -> Iterator[Finding]:
    return iter(())


RULE = Rule(
    id="expired-exemption",
    summary="a Lane A lint exemption in the policy has expired",
    fix="renew the exemption with a new expiry and reason, or remove the retry construct and the exemption",
    kinds=frozenset(),
    check=check,
)
