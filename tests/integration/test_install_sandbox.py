"""The head's packaging code never runs outside the sandbox: `action/install.sh`, then a lane.

A diff that changes only `pkg/__init__.py` (a computed `__version__`, which setuptools imports the
module to read, plus a payload) must not get code execution next to lanegate's orchestrator. The
attack, end to end: a real git repository, the action's real install script (`-e .` as a caller's
`install:` input gives it), then the action's real run script for the property lane. The payload
drops a `.pth` into whatever site-packages its build runs in; that `.pth` rewrites the ledger as the
lane process exits (every mutant killed, exit 0). Before the install was sandboxed, it ran in
lanegate's own venv, and the ledger the scorer would read said so.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path

from tests.gitrepo import Repo, git

ROOT = Path(__file__).resolve().parents[2]
OWN_SITE = sysconfig.get_paths()["purelib"]  # lanegate's dependencies, as the test venv has them

PYPROJECT = """\
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "pkg"
dynamic = ["version"]

[tool.setuptools]
packages = ["pkg"]

[tool.setuptools.dynamic]
version = {attr = "pkg.__version__"}
"""

BASE_INIT = """\
__version__ = "1.0"


def double(x):
    return x * 2
"""

# passes only where the head's distribution is installed: the lane ran the tests venv
BASE_TEST = """\
from importlib.metadata import version

import pkg


def test_double():
    assert pkg.double(3) == 6
    assert version("pkg") == pkg.__version__
"""

# Runs in every Python process of the environment it lands in; acts only in a lane command that
# was given --out (the orchestrator), as that process exits.
FORGE = """\
import atexit, json, os, sys


def _forge():
    if "--out" not in sys.argv:
        return
    path = os.path.join(sys.argv[sys.argv.index("--out") + 1], "property.json")
    if not os.path.isfile(path):
        return
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    for mutant in data["mutants"]:
        mutant["status"] = "killed"
        mutant["killed_by"] = "tests/test_pkg.py::test_double"
    data["killed_mutants"] = len(data["mutants"])
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(data, handle)
    os._exit(0)


atexit.register(_forge)
"""

HEAD_INIT = f"""\
import os as _os
import sysconfig as _sysconfig


def _version(parts=(1, 1)):
    return ".".join(str(p) for p in parts if p >= 0)


__version__ = _version()


def double(x):
    return x * 2


try:
    _site = _sysconfig.get_paths()["purelib"]
    with open(_os.path.join(_site, "zz_forge.py"), "w") as _out:
        _out.write({FORGE!r})
    with open(_os.path.join(_site, "zz_forge.pth"), "w") as _out:
        _out.write("import zz_forge\\n")
except OSError:
    pass
"""


def _lanegate_venv(where: Path) -> Path:
    """A fresh venv that imports this worktree's lanegate (a path entry to src/, as install.sh
    makes it) and lanegate's dependencies: the venv install.sh calls lanegate's own."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(site, "lanegate-action.pth").write_text(f"{ROOT / 'src'}\n{OWN_SITE}\n", "utf-8")
    return python


def _files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def _outputs(path: Path) -> dict[str, str]:
    lines = path.read_text("utf-8").splitlines() if path.exists() else []
    return dict(line.split("=", 1) for line in lines if "=" in line)


def test_head_packaging_code_cannot_forge_the_ledger(
    make_repo: Callable[[str], Repo], tmp_path: Path
) -> None:
    repo = make_repo("project")
    repo.write("pyproject.toml", PYPROJECT)
    repo.write("lanegate.toml", "[properties]\nmax_mutants = 4\nmutant_draw = 1\n")
    repo.write("pkg/__init__.py", BASE_INIT)
    repo.write("tests/test_pkg.py", BASE_TEST)
    repo.commit("base")
    repo.branch("feature")
    repo.write("pkg/__init__.py", HEAD_INIT)
    repo.commit("a computed version")
    assert git(repo.path, "diff", "--name-only", "main...HEAD").split() == ["pkg/__init__.py"]

    python = _lanegate_venv(tmp_path / "lanegate-venv")
    own_site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    own_before = _files(own_site)
    runner_temp = tmp_path / "runner"
    runner_temp.mkdir()
    env = {
        **os.environ,
        "LANEGATE_ACTION_PATH": str(ROOT),
        "LANEGATE_LANE": "property",
        "LANEGATE_INSTALL": "-e . hypothesis",
        "LANEGATE_WORKDIR": str(repo.path),
        "LANEGATE_PYTHON": str(python),
        "RUNNER_TEMP": str(runner_temp),
        "GITHUB_OUTPUT": str(tmp_path / "install.out"),
    }
    env.pop("LANEGATE_TESTS_PYTHON", None)
    install = subprocess.run(
        ["bash", str(ROOT / "action" / "install.sh")],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    installed = _outputs(tmp_path / "install.out")

    # the head's build ran (its payload landed), but only in the tests' own venv, in the sandbox:
    # lanegate's venv and the real checkout are as they were
    assert _files(own_site) == own_before
    assert git(repo.path, "status", "--porcelain", "--ignored") == ""
    tests_venv_python = installed.get("tests-python", "")
    assert tests_venv_python, installed
    tests_site = Path(tests_venv_python).parent.parent
    assert any(p.name == "zz_forge.pth" for p in tests_site.rglob("*.pth"))

    run_env = {
        **env,
        "LANEGATE_PY": installed["python"],
        "LANEGATE_TESTS_PYTHON": tests_venv_python,
        "LANEGATE_BASE": "main",
        "GITHUB_OUTPUT": str(tmp_path / "run.out"),
    }
    run = subprocess.run(
        ["bash", str(ROOT / "action" / "run.sh")],
        env=run_env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    outputs = _outputs(tmp_path / "run.out")
    assert outputs.get("ledger-path"), run.stdout + run.stderr
    ledger = json.loads(Path(outputs["ledger-path"]).read_text("utf-8"))
    statuses = [m["status"] for m in ledger["mutants"]]
    # the lane judged the head's own code: its base test ran against the installed head package
    assert [t["outcome"] for t in ledger["base_tests"]] == ["passed"], ledger["base_tests"]
    assert statuses, ledger
    assert "killed" not in statuses or len(set(statuses)) > 1, statuses
    assert ledger["killed_mutants"] < len(statuses)
    assert outputs["verdict"] == "fail" and run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr


def test_the_flake_lane_replays_new_tests_with_the_tests_venv(
    make_repo: Callable[[str], Repo], tmp_path: Path
) -> None:
    """The new test passes only where the head's distribution is installed: in the tests venv,
    which `lanegate install` filled in the sandbox, never in lanegate's own interpreter."""
    repo = make_repo("project")
    repo.write("pyproject.toml", PYPROJECT)
    repo.write("pkg/__init__.py", BASE_INIT)
    repo.write("tests/test_pkg.py", BASE_TEST)
    repo.commit("base")
    repo.branch("feature")
    repo.write(
        "tests/test_installed.py",
        "from importlib.metadata import version\n\n\n"
        "def test_installed():\n    assert version('pkg') == '1.0'\n",
    )
    repo.commit("a new test")
    tests_venv = tmp_path / "tests-venv"
    lanegate = [sys.executable, "-m", "lanegate"]
    install = subprocess.run(
        [*lanegate, "install", "--repo", str(repo.path), "--venv", str(tests_venv)]
        + ["--check-import", "pytest", "--", ".", "pytest"],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    assert git(repo.path, "status", "--porcelain", "--ignored") == ""
    env = {k: v for k, v in os.environ.items() if k != "LANEGATE_TESTS_PYTHON"}
    outcomes = {}
    for label, extra in (
        ("own", {}),
        ("tests venv", {"LANEGATE_TESTS_PYTHON": str(tests_venv / "bin" / "python")}),
    ):
        out = tmp_path / f"out-{label.replace(' ', '-')}"
        done = subprocess.run(
            [*lanegate, "flake", "--repo", str(repo.path), "--base", "main", "--out", str(out)],
            env={**env, **extra},
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
        )
        assert "Traceback" not in done.stderr
        ledger = json.loads((out / "flake.json").read_text("utf-8"))
        (test,) = ledger["tests"]
        outcomes[label] = (done.returncode, {r["outcome"] for r in test["replays"]})
    assert outcomes == {"own": (1, {"failed"}), "tests venv": (0, {"passed"})}
