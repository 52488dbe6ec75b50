"""What of lanegate's environment head code sees, in each lane: real sandboxes, real test processes.

The attack: a test names itself after a secret (`parametrize("v", [os.environ["TOKEN"]])`), and the
ledgers, the score report and the pull request comment carry test ids out of the sandbox. Only the
passthrough list, CI's markers (property and fixture lanes) and the policy's `sandbox.pass_env`
reach head code.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from lanegate.cli.main import main
from lanegate.lanes.base_policy import merge_base_pass_env
from lanegate.lanes.property.baseline import Baseline, run_baseline
from lanegate.ledgers.load import load_file
from lanegate.ledgers.models import CaseStatus, FixtureLedger
from lanegate.policy import load_policy
from lanegate.sandbox import open_sandbox
from lanegate.sandbox.environment import passed_environment
from tests.gitrepo import Repo
from tests.unit.flake.repos import feature_repo

SECRET = "ghp_lanegate_test_secret_0000"
PASS_ENV = "[sandbox]\npass_env = ['LG_NEEDED']\n"

LEAKING_TEST = f"""\
import os

import pytest


@pytest.mark.parametrize("seen", [os.environ.get("LG_SECRET", "absent")])
def test_leak(seen):
    assert os.environ.get("LG_NEEDED") == "needed"
    assert "{SECRET}" not in repr(sorted(os.environ.items()))
"""


@pytest.fixture
def runner_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """A runner whose environment holds a secret, a variable the suite needs, and CI's marker."""
    monkeypatch.setenv("LG_SECRET", SECRET)
    monkeypatch.setenv("LG_NEEDED", "needed")
    monkeypatch.setenv("PYTEST_ADDOPTS", "-p no:nothing-such")
    monkeypatch.setenv("CI", "true")


def _property_run(repo: Repo, policy_text: str) -> Baseline:
    """The property lane's run of the leaking test, on a fresh repository, in a real sandbox."""
    if policy_text:
        repo.write("lanegate.toml", policy_text)
    repo.write("tests/test_leak.py", LEAKING_TEST)
    repo.commit("base")
    policy = load_policy(repo.path)
    with open_sandbox(repo.path, policy.sandbox) as sandbox:
        return run_baseline(repo.path, policy, [], selection=["tests"], sandbox=sandbox)


def test_property_runs_see_neither_the_secret_nor_its_name_in_test_ids(
    make_repo: Callable[[str], Repo], runner_environment: None
) -> None:
    baseline = _property_run(make_repo("repo"), PASS_ENV)
    assert list(baseline.tests) == ["tests/test_leak.py::test_leak[absent]"]
    assert baseline.tests["tests/test_leak.py::test_leak[absent]"]["outcome"] == "passed"
    assert SECRET not in json.dumps(baseline.record)


def test_without_pass_env_the_needed_variable_stays_outside_too(
    make_repo: Callable[[str], Repo], runner_environment: None
) -> None:
    baseline = _property_run(make_repo("repo"), "")
    assert baseline.tests["tests/test_leak.py::test_leak[absent]"]["outcome"] == "failed"


ENV_CASE = """\
import os


def probe(data: bytes) -> bytes:
    return f"{os.environ.get('LG_SECRET')} {os.environ.get('LG_NEEDED')}\\n".encode()
"""


def test_fixture_cases_see_only_what_passes(
    make_repo: Callable[[str], Repo], runner_environment: None
) -> None:
    repo = make_repo("repo")
    repo.write("tests/fixtures/in.txt", b"x\n")
    repo.write("tests/fixtures/out.txt", b"None needed\n")
    repo.write("casefns.py", ENV_CASE)
    repo.write(
        "lanegate.toml",
        PASS_ENV + "[fixtures]\ncases = [\n  {id = 'env', input = 'in.txt', "
        "expected = 'out.txt', callable = 'casefns:probe'},\n]\n",
    )
    assert main(["lock", "--repo", str(repo.path)]) == 0
    repo.commit("base")
    repo.branch("pr")
    repo.write("other.py", "x = 1\n")
    repo.commit("agent change")
    out = repo.path.parent / "out"
    code = main(["fixture", "--repo", str(repo.path), "--base", "main", "--out", str(out)])
    ledger = load_file(FixtureLedger, "fixture", out / "fixture.json").value
    assert [(c.id, c.status) for c in ledger.cases] == [("env", CaseStatus.MATCH)]
    assert code == 0


def test_flake_replays_see_only_what_passes(
    make_repo: Callable[[str], Repo], runner_environment: None
) -> None:
    repo = feature_repo(
        make_repo, {"tests/test_leak.py": LEAKING_TEST}, {"lanegate.toml": PASS_ENV}
    )
    code = main(["flake", "--repo", str(repo.path), "--base", "main"])
    data = json.loads((repo.path / ".lanegate" / "flake.json").read_text(encoding="utf-8"))
    (test,) = data["tests"]
    assert test["node_id"] == "tests/test_leak.py::test_leak[absent]"
    assert {r["outcome"] for r in test["replays"]} == {"passed"}
    assert code == 0


def test_passed_environment_keeps_exactly_the_allowed_names() -> None:
    source = {
        "PATH": "/bin",
        "TZ": "UTC",
        "CI": "true",
        "GITHUB_TOKEN": SECRET,
        "AWS_SECRET_ACCESS_KEY": SECRET,
        "PYTEST_ADDOPTS": "--reruns 3",
        "PYTEST_XDIST_WORKER": "gw1",
        "DATABASE_URL": "postgres://x",
    }
    assert passed_environment(source) == {"PATH": "/bin", "TZ": "UTC", "CI": "true"}
    assert passed_environment(source, ["DATABASE_URL"], ci_markers=False) == {
        "PATH": "/bin",
        "TZ": "UTC",
        "DATABASE_URL": "postgres://x",
    }


def test_the_sandbox_reads_pass_env_from_its_policy(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    repo.mkdir()
    (repo / "lanegate.toml").write_text(PASS_ENV, encoding="utf-8")
    policy = load_policy(repo)
    with open_sandbox(repo, policy.sandbox, enabled=False) as sandbox:
        env = sandbox.environment({"LG_NEEDED": "1", "LG_SECRET": SECRET, "CI": "1"})
        assert env == {"LG_NEEDED": "1", "CI": "1"}
        assert sandbox.environment({"CI": "1"}, ci_markers=False) == {}


def test_pass_env_is_the_merge_bases_not_the_heads(
    make_repo: Callable[[str], Repo], runner_environment: None
) -> None:
    # the base lists the variable the suite needs; the head drops it and lists the secret instead
    base_policy = PASS_ENV
    head_policy = "[sandbox]\npass_env = ['LG_SECRET']\n"
    repo = feature_repo(
        make_repo,
        {"lanegate.toml": head_policy, "tests/test_leak.py": LEAKING_TEST},
        {"lanegate.toml": base_policy},
    )
    main(["flake", "--repo", str(repo.path), "--base", "main"])
    data = json.loads((repo.path / ".lanegate" / "flake.json").read_text(encoding="utf-8"))
    assert SECRET not in json.dumps(data)
    (test,) = data["tests"]
    assert test["node_id"] == "tests/test_leak.py::test_leak[absent]"
    assert {r["outcome"] for r in test["replays"]} == {"passed"}  # LG_NEEDED still reached it


def test_merge_base_pass_env_reads_the_bases_file_or_the_callers_own(
    make_repo: Callable[[str], Repo], tmp_path: Path
) -> None:
    repo = feature_repo(
        make_repo,
        {"lanegate.toml": "[sandbox]\npass_env = ['HEAD_ONLY']\n", "ci/policy.toml": ""},
        {"lanegate.toml": PASS_ENV, "ci/policy.toml": "[sandbox]\npass_env = ['FROM_BASE']\n"},
    )
    given = load_policy(repo.path)
    assert given.sandbox.pass_env == ("HEAD_ONLY",)
    assert merge_base_pass_env(repo.path, "main", "HEAD", given) == ("LG_NEEDED",)
    inside = repo.path / "ci" / "policy.toml"
    assert merge_base_pass_env(repo.path, "main", "HEAD", given, inside) == ("FROM_BASE",)
    outside = tmp_path / "caller.toml"
    outside.write_text("[sandbox]\npass_env = ['CALLERS']\n", encoding="utf-8")
    callers = load_policy(repo.path, outside)
    assert merge_base_pass_env(repo.path, "main", "HEAD", callers, outside) == ("CALLERS",)
    assert merge_base_pass_env(repo.path, "no-such-ref", "HEAD", given) == ()
    # a link in the tree that leads out of it: still the tree's file, read at the merge base
    (repo.path / "ci" / "policy.toml").unlink()
    (repo.path / "ci" / "policy.toml").symlink_to(outside)
    assert merge_base_pass_env(repo.path, "main", "HEAD", given, inside) == ("FROM_BASE",)


def test_the_merge_bases_pyproject_and_a_broken_base_policy(
    make_repo: Callable[[str], Repo], tmp_path: Path
) -> None:
    table = "[tool.lanegate.sandbox]\npass_env = ['FROM_PYPROJECT']\n"
    repo = feature_repo(
        make_repo,
        {"pyproject.toml": "[tool.lanegate.sandbox]\npass_env = ['HEAD']\n"},
        {"pyproject.toml": table},
    )
    given = load_policy(repo.path)
    # found by the default lookup, and named explicitly, as load_policy reads it
    assert merge_base_pass_env(repo.path, "main", "HEAD", given) == ("FROM_PYPROJECT",)
    explicit = repo.path / "pyproject.toml"
    assert merge_base_pass_env(repo.path, "main", "HEAD", given, explicit) == ("FROM_PYPROJECT",)
    # a base whose policy does not load passes nothing (fails closed)
    broken = {
        "lanegate.toml": "[sandbox\n",
        "pyproject.toml": "[tool]\nlanegate = 3\n",
    }
    for index, (name, text) in enumerate(broken.items()):
        bad = feature_repo(
            lambda _, i=index: Repo(tmp_path / f"bad{i}"), {"x.txt": "x"}, {name: text}
        )
        assert merge_base_pass_env(bad.path, "main", "HEAD", given) == ()
    reserved = feature_repo(
        lambda _: Repo(tmp_path / "reserved"),
        {"x.txt": "x"},
        {"lanegate.toml": "[sandbox]\npass_env = ['PYTEST_ADDOPTS']\n"},
    )
    assert merge_base_pass_env(reserved.path, "main", "HEAD", given) == ()
