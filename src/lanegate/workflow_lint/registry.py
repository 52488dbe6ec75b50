"""Every lint rule, in documentation order; `rules_for(kind)` picks the ones that read a file kind."""

from __future__ import annotations

from functools import cache

from lanegate.workflow_lint.rule import FileKind, Rule
from lanegate.workflow_lint.rules import (
    continue_on_error,
    expired_exemption,
    flaky_marker,
    local_action_retries,
    oversized_file,
    pytest_addopts_rerun,
    pytest_config_rerun,
    rerun_plugin_dependency,
    rerun_plugin_load,
    retry_action,
    reusable_workflow_retries,
    run_attempt,
    script_retries,
    shell_errexit_off,
    shell_ignore_failure,
    shell_rerun_fallback,
    shell_retry_function,
    shell_retry_loop,
    test_rerun_flag,
    test_retry_loop,
    two_step_retry,
    unparseable_file,
    workflow_rerun,
)

RULES: tuple[Rule, ...] = (
    retry_action.RULE,
    local_action_retries.RULE,
    reusable_workflow_retries.RULE,
    script_retries.RULE,
    continue_on_error.RULE,
    shell_retry_loop.RULE,
    shell_retry_function.RULE,
    shell_rerun_fallback.RULE,
    shell_ignore_failure.RULE,
    shell_errexit_off.RULE,
    two_step_retry.RULE,
    test_rerun_flag.RULE,
    pytest_addopts_rerun.RULE,
    pytest_config_rerun.RULE,
    rerun_plugin_load.RULE,
    rerun_plugin_dependency.RULE,
    flaky_marker.RULE,
    test_retry_loop.RULE,
    workflow_rerun.RULE,
    run_attempt.RULE,
    unparseable_file.RULE,
    oversized_file.RULE,
    expired_exemption.RULE,
)
RULES_BY_ID: dict[str, Rule] = {rule.id: rule for rule in RULES}
UNPARSEABLE = unparseable_file.RULE
OVERSIZED = oversized_file.RULE
EXPIRED_EXEMPTION = expired_exemption.RULE
TEST_RETRY_LOOP = test_retry_loop.RULE


@cache
def rules_for(kind: FileKind) -> tuple[Rule, ...]:
    """The rules that read files of `kind`, in registry order."""
    return tuple(rule for rule in RULES if kind in rule.kinds)
