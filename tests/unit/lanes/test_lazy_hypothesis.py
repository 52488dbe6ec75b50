"""A lane's test process imports Hypothesis only when a test does, and still pins what it must."""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from lanegate.lanes.lazy_hypothesis import when_imported

PLUGIN_ARGS = (
    "-p",
    "lanegate.lanes.property.plugin",
    "-p",
    "no:cacheprovider",
    "-p",
    "no:randomly",
)


def _lane_pytest(repo: Path, *args: str) -> tuple[dict, str]:
    """A property-plugin pytest run in `repo` under `-X importtime`: (its record, its import log).

    `-s`: pytest would otherwise capture the import log of collection and tests."""
    out = repo.parent / f"{repo.name}-record.json"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pytest", "-s", *PLUGIN_ARGS, *args, "-n", "0"]
        + [f"--lanegate-out={out}", "tests"],
        cwd=repo,
        # Hypothesis loads its derandomizing `ci` profile when these are set (as in lanegate's CI)
        env={k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS")},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert out.exists(), done.stdout[-2000:] + done.stderr[-2000:]
    return json.loads(out.read_text(encoding="utf-8")), done.stderr


def _imported(import_log: str) -> set[str]:
    return {line.rsplit("|", 1)[-1].strip() for line in import_log.splitlines() if "|" in line}


def _repo(tmp_path: Path, name: str, test_source: str) -> Path:
    repo = tmp_path / name
    (repo / "tests").mkdir(parents=True)
    (repo / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (repo / "tests" / "test_it.py").write_text(test_source, encoding="utf-8")
    return repo


def test_a_run_whose_tests_never_use_hypothesis_never_imports_it(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "plain", "def test_one():\n    assert 1 + 1 == 2\n")
    record, imports = _lane_pytest(repo, "--lanegate-seed=5")
    assert record["tests"]["tests/test_it.py::test_one"]["outcome"] == "passed"
    assert not {m for m in _imported(imports) if m.split(".")[0] == "hypothesis"}
    # what the record says of Hypothesis comes from the installed distribution, without a profile
    assert record["hypothesis_version"] == importlib.metadata.version("hypothesis")
    assert record["profile"] == ""


SEEDED = """\
import hypothesis.core
from hypothesis import given, settings, strategies as st

DRAWN = []


def test_the_seed_is_pinned_before_any_test_runs():
    assert hypothesis.core.global_force_seed == 4242


@given(st.integers())
def test_a_property(x):
    DRAWN.append(x)


def test_the_policy_profile_was_loaded_before_this_module():
    assert settings.get_current_profile_name() == "lanegate"
    assert test_a_property._hypothesis_internal_use_settings.max_examples == 7
    assert len(DRAWN) == 7
"""


def test_a_test_module_that_imports_hypothesis_gets_the_seed_profile_and_counter(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path, "seeded", SEEDED)
    record, imports = _lane_pytest(repo, "--lanegate-seed=4242", "--lanegate-max-examples=7")
    tests = record["tests"]
    assert {n.split("::")[1]: e["outcome"] for n, e in tests.items()} == {
        "test_the_seed_is_pinned_before_any_test_runs": "passed",
        "test_a_property": "passed",
        "test_the_policy_profile_was_loaded_before_this_module": "passed",
    }
    prop = tests["tests/test_it.py::test_a_property"]
    assert prop["cases_run"] == 7  # the observation callback was installed when Hypothesis came
    assert prop["settings"]["seed_source"] == "--hypothesis-seed"
    assert prop["settings"]["seed"] == "4242"
    assert record["profile"] == "default+lanegate"
    assert "hypothesis" in _imported(imports)


DODGING = """\
import sys

# a module that takes the lane's import hook away before it imports Hypothesis
sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_OnFirstImport"]

import hypothesis.core
from hypothesis import given, strategies as st


def test_the_seed_is_pinned_all_the_same():
    assert hypothesis.core.global_force_seed == 99


@given(st.integers())
def test_a_property(x):
    pass
"""


def test_a_module_that_dodges_the_import_hook_is_set_up_before_its_first_test(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path, "dodging", DODGING)
    record, _ = _lane_pytest(repo, "--lanegate-seed=99", "--lanegate-max-examples=7")
    tests = record["tests"]
    assert tests["tests/test_it.py::test_the_seed_is_pinned_all_the_same"]["outcome"] == "passed"
    prop = tests["tests/test_it.py::test_a_property"]
    assert prop["outcome"] == "passed"
    assert prop["cases_run"] > 0  # the case counter was installed before the property ran
    assert prop["settings"]["seed"] == "99"
    # too late for the profile that `@given` captured at import: the record shows the cut below
    # the policy's ask (100 declared, not 7 raised) instead of hiding it
    assert prop["settings"]["max_examples"] == 100


def test_the_callback_waits_for_the_first_import_then_leaves_the_finders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "lazy_target_mod.py").write_text("VALUE = 41 + 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "lazy_target_mod", raising=False)
    seen: list[ModuleType] = []
    finders = list(sys.meta_path)
    when_imported("lazy_target_mod", seen.append)
    assert seen == []
    import lazy_target_mod  # noqa: PLC0415 - the import under test

    assert [m.VALUE for m in seen] == [42] and seen[0] is lazy_target_mod
    assert sys.meta_path == finders
    when_imported("lazy_target_mod", seen.append)  # loaded already: at once
    assert len(seen) == 2
    monkeypatch.delitem(sys.modules, "lazy_target_mod")
