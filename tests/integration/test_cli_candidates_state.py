"""`lanegate candidates` judges a head that breaks a base test through shared state as a separate
`lanegate run` judges it (its own file: its two end-to-end runs need none of the shared batch, so the
second xdist worker takes them beside it)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from lanegate.demo.bundle import load_shipped
from lanegate.demo.scenario import build_repo
from tests.gitrepo import git
from tests.integration.test_cli_candidates import _branch, judge, run_alone

REGISTRY = '''"""Unit multipliers, with a registry of extra units."""

_UNITS = {"k": 1000, "m": 1000000}


def scale(name: str) -> int:
    """The multiplier of a unit name."""
    return _UNITS[name]


def register(name: str, factor: int) -> int:
    """Add a unit; returns its factor."""
    _UNITS[name] = factor
    return factor
'''
STATE_BREAK = REGISTRY.replace(
    "    _UNITS[name] = factor\n", '    _UNITS[name] = factor\n    _UNITS["k"] = 1024\n'
)
BREAK_TEST = """from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.registry import register
from lanegate.oracles import equivalent


@settings(database=None)
@given(st.sampled_from(["g", "t", "p"]), st.integers(1, 50))
def test_register_returns_its_factor(name, factor):
    equivalent(register, lambda n, f: f, name, factor)
"""


def test_a_head_breaking_a_base_test_through_shared_state_fails_as_a_separate_run_fails_it(
    tmp_path: Path,
) -> None:
    # the red team's shape: base test A calls register(), which at head changes the module dict
    # base test B reads; a coverage map selects only A for the head, a separate run runs both
    root = Path(tempfile.mkdtemp(prefix="lanegate-candidates-state-", dir="/var/tmp"))
    try:
        repo = root / "repo"
        build_repo(load_shipped(), repo)
        base = _branch(
            repo,
            "registry",
            {
                "demo_lib/registry.py": REGISTRY,
                "tests/test_registry_a.py": "from demo_lib.registry import register\n\n\n"
                "def test_register_returns_factor():\n    assert register('g', 7) == 7\n",
                "tests/test_registry_b.py": "from demo_lib.registry import scale\n\n\n"
                "def test_scale_kilo():\n    assert scale('k') == 1000\n",
            },
        )
        git(repo, "checkout", "-q", "-b", "statebreak", base)
        (repo / "demo_lib/registry.py").write_text(STATE_BREAK, encoding="utf-8")
        (repo / "tests/test_registry_binary.py").write_text(BREAK_TEST, encoding="utf-8")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "registry: binary kilo once units are registered")
        git(repo, "checkout", "-q", "main")
        out = root / "out"
        done, report = judge(repo, root, out, "--base", "registry", "statebreak")
        (entry,) = report["candidates"]
        separate = run_alone(repo, "statebreak", "registry", tmp_path / "alone")
        assert separate["verdict"] == "fail", separate
        assert "property-base-test-failed" in {f["rule_id"] for f in separate["fails"]}
        assert entry["verdict"] == separate["verdict"], done.stderr
        assert entry["failed_rules"] == sorted({f["rule_id"] for f in separate["fails"]})
        assert report["selection"] == "separate-run" and done.returncode == 1
    finally:
        shutil.rmtree(root, ignore_errors=True)
