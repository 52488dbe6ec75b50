"""Every parser the lint calls ends a deeply nested input in a finding naming the file, never an
internal error: TOML, INI (tox substitutions), YAML, Python (test modules, setup.py, `shell: python`
steps) and the JSON lint report the scorer reads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from lanegate.scoring import LoadFailure, lint_from_bytes
from lanegate.scoring.inputs import lint_from_file
from tests.unit.workflow_lint.helpers import lint_tree, rendered

DEPTHS = (1000, 10_000)


def _python_step(body: str) -> str:
    return (
        "on: push\njobs:\n  t:\n    runs-on: x\n    steps:\n      - shell: python\n        run: |\n"
        + "".join(f"          {line}\n" for line in body.splitlines())
    )


def _files(kind: str, n: int) -> tuple[dict[str, str], str]:
    """(the files, the one finding expected as `path rule-id`)."""
    chain = "a" + ".b" * n
    return {
        "toml-array": ({"pyproject.toml": "a = " + "[" * n + "]" * n + "\n"}, "pyproject.toml"),
        "toml-inline-table": (
            {"pixi.toml": "a = " + "{b = " * n + "1" + "}" * n + "\n"},
            "pixi.toml",
        ),
        "yaml-flow": (
            {".github/workflows/ci.yml": "on: push\njobs: " + "[" * n + "]" * n + "\n"},
            ".github/workflows/ci.yml",
        ),
        "yaml-block": (
            {
                ".github/workflows/ci.yml": "on: push\njobs:\n"
                + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(n))
            },
            ".github/workflows/ci.yml",
        ),
        "conda": (
            {"environment.yml": "dependencies: " + "[" * n + "]" * n + "\n"},
            "environment.yml",
        ),
        "python-brackets": (
            {
                "tests/test_x.py": "def test():\n    x = "
                + "(" * n
                + ")" * n
                + "\n    try: pass\n    except: pass\n"
            },
            "tests/test_x.py",
        ),
        "python-operators": (
            {
                "tests/test_x.py": "def test():\n    try:\n        x = "
                + " + ".join(["1"] * n * 20)
                + "\n    except Exception: pass\n"
            },
            "tests/test_x.py",
        ),
        "python-attributes": (
            {
                "tests/test_x.py": "def test():\n    try:\n        "
                + chain
                + "()\n    except Exception: pass\n"
            },
            "tests/test_x.py",
        ),
        "python-lambdas": (
            {
                "tests/test_x.py": "def test():\n    try:\n        f = "
                + "lambda: " * n
                + "1\n    except Exception: pass\n"
            },
            "tests/test_x.py",
        ),
        # a conftest without a retry word is parsed all the same: discovery reads its collect_ignore
        "conftest": (
            {"tests/conftest.py": "collect_ignore = " + "[" * n + "]" * n + "\n"},
            "tests/conftest.py",
        ),
        "yaml-aliases": (
            {
                ".github/workflows/ci.yml": "on: push\nx0: &a0 [1]\n"
                + "".join(f"x{i}: &a{i} [*a{i - 1}, *a{i - 1}]\n" for i in range(1, 60))
                + "jobs: {}\n"
            },
            ".github/workflows/ci.yml",
        ),
        "setup-py": (
            {"setup.py": "# flaky\nsetup(install_requires=" + "[" * n + "]" * n + ")\n"},
            "setup.py",
        ),
        "python-step": (
            {".github/workflows/ci.yml": _python_step(f"import subprocess\n{chain}(['pytest'])")},
            ".github/workflows/ci.yml",
        ),
    }[kind]


KINDS = [
    "toml-array",
    "toml-inline-table",
    "yaml-flow",
    "yaml-block",
    "conda",
    "python-brackets",
    "python-operators",
    "python-attributes",
    "python-lambdas",
    "conftest",
    "yaml-aliases",
    "setup-py",
    "python-step",
]


@pytest.mark.parametrize("n", DEPTHS)
@pytest.mark.parametrize("kind", KINDS)
def test_deep_input_is_a_finding_naming_the_file(tmp_path: Path, kind: str, n: int) -> None:
    files, path = _files(kind, n)
    result = lint_tree(tmp_path, files)
    assert [f.primary.path for f in result.findings] == [path], rendered(result)
    assert result.findings[0].rule_id in ("unparseable-file", "oversized-file")


@pytest.mark.parametrize("n", DEPTHS)
def test_a_retry_under_deeply_nested_shell_blocks_is_found(tmp_path: Path, n: int) -> None:
    # each block is one entry of the parser's stack, asked for its innermost loop at the top
    script = (
        "".join(f"          {'if true; then' if i % 2 else 'while true; do'}\n" for i in range(n))
        + "          pytest || pytest\n"
        + "".join(f"          {'fi' if i % 2 else 'done'}\n" for i in reversed(range(n)))
    )
    workflow = "on: push\njobs:\n  t:\n    runs-on: x\n    steps:\n      - run: |\n" + script
    result = lint_tree(tmp_path, {".github/workflows/ci.yml": workflow})
    assert [f.rule_id for f in result.findings] == ["shell-rerun-fallback"], rendered(result)


def test_a_long_deps_list_without_substitutions_is_read_whole(tmp_path: Path) -> None:
    # the cap bounds what substitutions pull in; an entry's own lines are bounded by the file's size
    own = "".join(f"    py3{i % 10}: package{i}\n" for i in range(16_000))
    text = "[testenv]\ndeps =\n" + own + "    pytest-rerunfailures\n"
    result = lint_tree(tmp_path, {"tox.ini": text})
    assert rendered(result) == ["tox.ini:16003:5 rerun-plugin-dependency"]
    assert "not followed" not in result.findings[0].message
    clean = lint_tree(tmp_path / "clean", {"tox.ini": "[testenv]\ndeps =\n" + own})
    assert rendered(clean) == []


@pytest.mark.parametrize("n", DEPTHS)
@pytest.mark.parametrize("opener", ["[", '{"a": '])
def test_a_deep_lint_report_is_a_load_failure_naming_it(n: int, opener: str) -> None:
    closer = "]" if opener == "[" else "}"
    data = (opener * n + ("1" if opener != "[" else "") + closer * n).encode()
    slot = lint_from_bytes(data, "out/lint.json")
    assert isinstance(slot, LoadFailure) and slot.path == "out/lint.json"
    assert "nests too deep" in slot.message


def test_a_lint_report_over_the_size_cap_is_a_load_failure(tmp_path: Path) -> None:
    path = tmp_path / "lint.json"
    path.write_bytes(b'{"x": "' + b"a" * (17 * 1024 * 1024) + b'"}')
    slot = lint_from_file(path)
    assert isinstance(slot, LoadFailure) and "cap" in slot.message and str(path) in slot.message


def test_names_the_filesystem_refuses_are_no_files_of_the_repository(tmp_path: Path) -> None:
    # a script or local action named by a word longer than a file name can be (a docstring read as
    # shell, a generated name): looked up, it is not there, never an internal error
    long = "a" * 300
    workflow = (
        "on: push\njobs:\n  t:\n    runs-on: x\n    steps:\n"
        f"      - run: ./{long}.sh && bash scripts/{long}/run.sh\n"
        f"      - uses: ./.github/actions/{long}\n"
        "      - run: pytest || true\n"
    )
    result = lint_tree(tmp_path, {".github/workflows/ci.yml": workflow})
    assert [f.rule_id for f in result.findings] == ["shell-ignore-failure"], rendered(result)


def test_tox_substitutions_past_the_cap_fail_closed(tmp_path: Path) -> None:
    # each section pulls in the next one twice: 2**14 values, past the cap
    sections = "".join(f"[s{i}]\ndeps =\n    {{[s{i + 1}]deps}}\n    x{i}\n" for i in range(14000))
    text = "[testenv]\ndeps =\n    {[s0]deps}\n" + sections
    result = lint_tree(tmp_path, {"tox.ini": text})
    assert rendered(result) == ["tox.ini:2:1 rerun-plugin-dependency"]
    assert "not followed" in result.findings[0].message


@pytest.mark.parametrize("n", DEPTHS)
def test_cli_on_a_deep_pyproject_reports_it(tmp_path: Path, n: int) -> None:
    """The policy lookup reads pyproject.toml too: a deep one is the lint's finding, not exit 3."""
    (tmp_path / "pyproject.toml").write_text("a = " + "[" * n + "]" * n + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "lanegate", "lint", "--format", "json", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    findings = json.loads(done.stdout)["findings"]
    assert [(f["path"], f["rule_id"]) for f in findings] == [("pyproject.toml", "unparseable-file")]
    assert "nested too deeply" in findings[0]["message"]


def test_cli_on_a_pyproject_over_the_size_cap_reports_it(tmp_path: Path) -> None:
    """Over the lint's cap the policy lookup keeps its defaults: the file is the lint's finding."""
    tables = "".join(f"[t{i}]\nkey = {'1' * 200}\n" for i in range(12_000))
    (tmp_path / "pyproject.toml").write_text(tables)
    done = subprocess.run(
        [sys.executable, "-m", "lanegate", "lint", "--format", "json", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    findings = json.loads(done.stdout)["findings"]
    assert [(f["path"], f["rule_id"]) for f in findings] == [("pyproject.toml", "oversized-file")]


def test_a_broken_policy_table_is_still_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.lanegate]\nno_such_key = 1\n")
    done = subprocess.run(
        [sys.executable, "-m", "lanegate", "lint", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 2 and "pyproject.toml" in done.stderr
