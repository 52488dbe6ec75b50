"""What a lane's pytest child pays at start-up: installed plugins (Hypothesis's first) are imported
as installed, not rewritten; the repository's own modules still are.

Real pytest runs in the real sandbox, through `run_baseline`: the test module itself checks which of
its modules pytest's assertion rewriter loaded, so a pytest that stops honouring the cut fails here.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from lanegate.lanes.property.baseline import run_baseline
from lanegate.policy import load_policy
from lanegate.sandbox import open_sandbox

LOADERS = """
import sys

from _pytest.assertion.rewrite import AssertionRewritingHook

import hypothesis.core
import hypothesis.strategies


def _rewritten(name):
    return isinstance(getattr(sys.modules[name], "__loader__", None), AssertionRewritingHook)


def test_hypothesis_is_not_rewritten():
    assert not _rewritten("hypothesis")
    assert not _rewritten("hypothesis.core")
    assert not _rewritten("hypothesis.strategies")
    assert not _rewritten("_hypothesis_pytestplugin")


def test_other_installed_plugins_are_not_rewritten():
    import xdist.plugin

    assert not _rewritten("xdist")
    assert not _rewritten("xdist.plugin")


def test_the_test_module_still_is():
    assert _rewritten(__name__)


def test_the_repositorys_own_plugin_still_is():
    assert _rewritten("repo_plugin")

"""


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "tests" / "test_loaders.py").write_text(LOADERS, encoding="utf-8")
    # a `-p` plugin of the repository's own: head code, its asserts keep their rewriting
    (repo / "repo_plugin.py").write_text("def helper(x):\n    assert x\n", encoding="utf-8")
    (repo / "pytest.ini").write_text("[pytest]\naddopts = -p repo_plugin\n", encoding="utf-8")
    return repo


def test_child_imports_hypothesis_unrewritten_and_rewrites_the_tests(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    baseline = run_baseline(
        repo, load_policy(repo), [], selection=["tests"], sandbox=open_sandbox(repo)
    )
    tests = baseline.tests
    node = "tests/test_loaders.py::"
    assert tests[node + "test_hypothesis_is_not_rewritten"]["outcome"] == "passed"
    assert tests[node + "test_other_installed_plugins_are_not_rewritten"]["outcome"] == "passed"
    assert tests[node + "test_the_test_module_still_is"]["outcome"] == "passed"
    assert tests[node + "test_the_repositorys_own_plugin_still_is"]["outcome"] == "passed"
    assert len(tests) == 4


def test_lane_child_does_not_import_the_mutant_runner(tmp_path: Path) -> None:
    """The baseline child loads the plugin, not the lane side of the mutant runner (the sandbox,
    the ledger models, the policy): those imports were a tenth of its start-up."""
    repo = _repo(tmp_path)
    (repo / "tests" / "test_modules.py").write_text(
        "import sys\n\n\ndef test_modules():\n"
        "    assert 'lanegate.lanes.property.plugin' in sys.modules\n"
        "    loaded = sorted(n for n in sys.modules if n.startswith('lanegate.'))\n"
        "    assert 'lanegate.lanes.property.mutate_run' not in loaded, loaded\n"
        "    assert 'lanegate.sandbox.core' not in loaded, loaded\n"
        "    assert 'lanegate.ledgers.models' not in loaded, loaded\n",
        encoding="utf-8",
    )
    baseline = run_baseline(
        repo,
        load_policy(repo),
        [],
        selection=["tests/test_modules.py"],
        sandbox=open_sandbox(repo),
    )
    entry = baseline.tests["tests/test_modules.py::test_modules"]
    assert entry["outcome"] == "passed", entry.get("detail")


def test_a_mutant_worker_imports_none_of_the_lane_side() -> None:
    """What a fork server imports before it configures pytest (its own module, the plugin and the
    mutant machinery): none of the lane's sandbox, ledger or policy modules."""
    code = (
        "import sys\n"
        "import lanegate.lanes.property.fork_server\n"
        "import lanegate.lanes.property.hotpatch\n"
        "import lanegate.lanes.property.importhook\n"
        "import lanegate.lanes.property.plugin\n"
        "print(' '.join(sorted(n for n in sys.modules if n.startswith('lanegate'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(done.stdout.split())
    assert "lanegate.lanes.property.fork_server" in loaded
    heavy = {n for n in loaded if n.startswith(("lanegate.ledgers", "lanegate.sandbox"))}
    assert not heavy and "lanegate.policy" not in loaded, sorted(loaded)
