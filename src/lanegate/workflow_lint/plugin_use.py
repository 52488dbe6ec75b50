"""Whether a declared rerun plugin can act. pytest-rerunfailures, flaky and pytest-retry re-run
nothing until something asks them to: a rerun mark on a test, a rerun flag on a command line or in
`addopts`, a rerun ini option, or a load by name (`-p`, `pytest_plugins`); and lanegate's lanes run
pytest with `-p no:<plugin>` for each. A dependency on one that nothing in the linted files asks to
act is dormant: still reported (one mark away from forgiving failures), saying so; in the gate's
lint it is Lane A unless the diff added it, since the marks and flags that would wake it are each
a finding of their own."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from lanegate.model import Finding

DEPENDENCY = "rerun-plugin-dependency"
# the rules whose findings ask a rerun plugin to re-run something
ACTIVATING = frozenset(
    {
        "flaky-marker",
        "test-rerun-flag",
        "pytest-addopts-rerun",
        "pytest-config-rerun",
        "rerun-plugin-load",
    }
)
DORMANT_NOTE = (
    " (dormant: no rerun mark, flag, option or load in the linted files asks it to act, and "
    "lanegate's lanes run pytest with it disabled)"
)


def mark_dormant(findings: Iterable[Finding]) -> tuple[list[Finding], frozenset[Finding]]:
    """(the findings, each dependency finding's message saying it is dormant when nothing activates a
    rerun plugin, the dormant ones). Any activation anywhere wakes every declared plugin (a mark
    does not say which plugin reads it): fail closed."""
    found = list(findings)
    if any(f.rule_id in ACTIVATING for f in found):
        return found, frozenset()
    out: list[Finding] = []
    dormant: set[Finding] = set()
    for finding in found:
        if finding.rule_id == DEPENDENCY and not finding.message.endswith(DORMANT_NOTE):
            finding = dataclasses.replace(finding, message=finding.message + DORMANT_NOTE)
            dormant.add(finding)
        out.append(finding)
    return out, frozenset(dormant)
