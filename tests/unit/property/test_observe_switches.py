"""Both observability switches count the same cases; the effective settings under CI are recorded."""

from __future__ import annotations

from pathlib import Path

from lanegate.lanes.property.baseline import run_baseline
from lanegate.policy import load_policy
from lanegate.sandbox import open_sandbox

NODE = "tests/test_ledgermath.py::test_amounts_round_trip"


def test_callback_and_files_agree_and_ci_profile_is_recorded(
    target_copy: Path, monkeypatch
) -> None:
    policy = load_policy(target_copy)
    monkeypatch.setenv("CI", "true")
    sandbox = open_sandbox(target_copy)
    in_ci = run_baseline(
        target_copy, policy, [], observe_mode="callback", selection=[NODE], sandbox=sandbox
    )
    monkeypatch.delenv("CI")
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    local = run_baseline(
        target_copy, policy, [], observe_mode="files", selection=[NODE], sandbox=sandbox
    )
    a, b = in_ci.tests[NODE], local.tests[NODE]
    assert a["cases_run"] == b["cases_run"] == policy.properties.max_examples
    assert a["cases_failed"] == b["cases_failed"] == 0
    # Hypothesis's ci profile derandomizes: --hypothesis-seed is then not what chose the examples
    assert in_ci.record["profile"] == "ci+lanegate"
    assert a["settings"]["derandomize"] is True and a["settings"]["seed_source"] == "derandomize"
    assert local.record["profile"] == "default+lanegate"
    assert b["settings"]["seed_source"] == "--hypothesis-seed" and b["settings"]["seed"] == "0"
    assert a["settings"]["database"] is None and b["settings"]["database"] is None
    # nothing was written into the repository (observations and database live outside it)
    assert not (target_copy / ".hypothesis").exists()
