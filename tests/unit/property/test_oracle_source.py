"""The oracle module is the merge base's: a module the diff changed is judged and run in its base
version, one the diff added is no oracle (a stand-in re-exporting lanegate's own runs instead)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from lanegate.diff import classify_diff
from lanegate.lanes.property.oracle_source import STAND_IN, oracle_overlays, trusted_oracle_module
from lanegate.policy import Policy, load_policy
from tests.gitrepo import Repo

POLICY = '[properties]\nmodule = "tests/oracles.py"\n'
BASE_ORACLES = (
    "def round_trips(encode, decode, value):\n    assert decode(encode(value)) == value\n"
)
HEAD_ORACLES = (
    "def round_trips(encode, decode, value):\n    return None\n\n\ndef anything(x):\n    pass\n"
)


def _repo(
    make_repo: Callable[[str], Repo], base: str | None, head: str | None
) -> tuple[Repo, Policy]:
    repo = make_repo("r")
    repo.write("lanegate.toml", POLICY)
    repo.write("calc.py", "def add(a, b):\n    return a + b\n")
    if base is not None:
        repo.write("tests/oracles.py", base)
    repo.commit("base")
    repo.branch("agent")
    if head is not None:
        repo.write("tests/oracles.py", head)
    repo.write("calc.py", "def add(a, b):\n    return b + a\n")
    repo.commit("agent")
    return repo, load_policy(repo.path)


def test_a_changed_module_is_judged_and_run_in_its_base_version(
    make_repo: Callable[[str], Repo], tmp_path: Path
) -> None:
    repo, policy = _repo(make_repo, BASE_ORACLES, HEAD_ORACLES)
    summary = classify_diff(repo.path, "main", policy)
    assert trusted_oracle_module(repo.path, policy, summary).functions == {"round_trips"}
    overlays = oracle_overlays(repo.path, policy, summary, tmp_path)
    assert list(overlays) == [repo.path / "tests/oracles.py"]
    assert overlays[repo.path / "tests/oracles.py"].read_text() == BASE_ORACLES


def test_a_module_the_diff_added_is_no_oracle(
    make_repo: Callable[[str], Repo], tmp_path: Path
) -> None:
    repo, policy = _repo(make_repo, None, HEAD_ORACLES)
    summary = classify_diff(repo.path, "main", policy)
    assert trusted_oracle_module(repo.path, policy, summary).functions == frozenset()
    overlays = oracle_overlays(repo.path, policy, summary, tmp_path)
    assert overlays[repo.path / "tests/oracles.py"].read_bytes() == STAND_IN


def test_an_untouched_module_needs_no_overlay(
    make_repo: Callable[[str], Repo], tmp_path: Path
) -> None:
    repo, policy = _repo(make_repo, BASE_ORACLES, None)
    summary = classify_diff(repo.path, "main", policy)
    assert oracle_overlays(repo.path, policy, summary, tmp_path) == {}
    assert trusted_oracle_module(repo.path, policy, summary).functions == {"round_trips"}
