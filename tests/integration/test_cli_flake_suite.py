"""`lanegate flake` collects the whole suite as the project's own pytest run does, at head and at
the merge base: a diff whose new test module breaks that run (an import-file mismatch), or whose
conftest drops tests outside its own files, fails though its own tests pass every replay."""

from __future__ import annotations

from typing import Any

from tests.integration.test_cli_flake import flake, ledger
from tests.unit.flake.repos import feature_repo

BASE = {
    "tests/test_codec.py": "def test_encode():\n    assert 'a'.encode() == b'a'\n",
    "tests/test_old.py": "def test_old():\n    assert 1 + 1 == 2\n",
}
NEW_TEST = "def test_decode():\n    assert b'a'.decode() == 'a'\n"


def _suite(repo: Any) -> dict[str, Any]:
    suite: dict[str, Any] = ledger(repo.path)["suite"]
    return suite


def test_a_new_module_with_a_taken_basename_breaks_the_whole_run_and_fails(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, {"tests/unit/test_codec.py": NEW_TEST}, BASE)
    assert flake(repo.path) == 1
    printed = capsys.readouterr().out
    suite = _suite(repo)
    assert suite["ran"] and suite["base_tests"] == 2
    [error] = suite["new_errors"]
    assert error["collector"] == "tests/unit/test_codec.py"
    assert "import file mismatch" in error["detail"]
    assert "[flake-suite-collection] tests/unit/test_codec.py fails to collect" in printed


def test_a_conftest_that_drops_tests_elsewhere_fails(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    files = {"tests/conftest.py": 'collect_ignore = ["test_old.py"]\n', "tests/test_new.py": NEW_TEST}
    repo = feature_repo(make_repo, files, BASE)
    assert flake(repo.path) == 1
    printed = capsys.readouterr().out
    suite = _suite(repo)
    assert suite["lost"] == ["tests/test_old.py::test_old"] and suite["lost_count"] == 1
    assert not suite["new_errors"]
    assert "1 test(s) outside the files the diff touched" in printed


def test_an_honest_new_module_and_a_removed_test_file_pass(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, {"tests/unit/test_decode.py": NEW_TEST}, BASE)
    repo.remove("tests/test_old.py")  # the diff's own file: its tests may go
    repo.commit("drop the old test")
    assert flake(repo.path) == 0, capsys.readouterr().out
    suite = _suite(repo)
    assert suite == {
        "base_tests": 2,
        "detail": "",
        "head_tests": 2,
        "lost": [],
        "lost_count": 0,
        "new_errors": [],
        "ran": True,
    }


def test_ids_with_paths_or_random_values_a_changed_parameter_list_and_an_untracked_file_pass(
    make_repo, capsys
) -> None:  # type: ignore[no-untyped-def]
    base = {
        ".gitignore": "pkg/_version.py\n",
        "pkg/__init__.py": "",
        "pkg/registry.py": "REGISTRY = ['alpha', 'beta', 'gamma']\n",
        # a build step writes it; pytest needs it to collect anything
        "conftest.py": "from pkg._version import VERSION\n",
        "tests/test_paths.py": (
            "from pathlib import Path\n\nimport pytest\n\n\n"
            "@pytest.mark.parametrize('p', [str(Path(__file__).resolve())])\n"
            "def test_reads_itself(p):\n    assert Path(p).exists()\n"
        ),
        "tests/test_random.py": (
            "import random\n\nimport pytest\n\n\n"
            "@pytest.mark.parametrize('n', [random.random()])\n"
            "def test_unit_interval(n):\n    assert 0 <= n < 1\n"
        ),
        "tests/test_registry.py": (
            "import pytest\n\nfrom pkg.registry import REGISTRY\n\n\n"
            "@pytest.mark.parametrize('name', REGISTRY)\n"
            "def test_named(name):\n    assert name.isalpha()\n"
        ),
    }
    head = {"pkg/registry.py": "REGISTRY = ['alpha', 'gamma']\n", "tests/test_new.py": NEW_TEST}
    repo = feature_repo(make_repo, head, base)
    (repo.path / "pkg" / "_version.py").write_text("VERSION = '1.0'\n")  # untracked, ignored
    assert flake(repo.path) == 0, capsys.readouterr().out
    suite = _suite(repo)
    assert suite["ran"] and suite["lost"] == [] and suite["new_errors"] == [], suite
    assert (suite["base_tests"], suite["head_tests"]) == (5, 5)


def test_a_module_that_skips_itself_at_head_lost_nothing(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    # the diff turns a feature off; its tests skip themselves at module level (importorskip)
    base = {
        "pkg/__init__.py": "",
        "pkg/feature.py": "def on():\n    return True\n",
        "tests/test_feature.py": (
            "import pytest\n\nfeature = pytest.importorskip('pkg.feature')\n\n\n"
            "def test_on():\n    assert feature.on()\n"
        ),
    }
    repo = feature_repo(make_repo, {"tests/test_new.py": NEW_TEST}, base)
    repo.remove("pkg/feature.py")
    repo.commit("turn the feature off")
    assert flake(repo.path) == 0, capsys.readouterr().out
    suite = _suite(repo)
    assert suite["ran"] and suite["lost"] == [] and suite["base_tests"] == 1
