"""What lanegate's interpreter imports from stays importable in the sandbox, wherever it lives.

A venv may reach another's packages through a `.pth` file (`site.addsitedir`), as the real-projects
benchmark's venv does; when that folder is under `/tmp`, which every sandbox replaces with an empty
tmpfs, pytest went missing inside with nothing saying why.

Only lanegate's own environment is bound back, never another folder a `.pth` adds: a project
installed editable from a checkout the sandbox hides (under `$HOME`, under `/tmp`) would otherwise
have its hidden `src/` shadow the tree under test's own modules (red team).
"""

from __future__ import annotations

import shutil
import site
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

SANDBOXED = """\
import os, subprocess, sys
from pathlib import Path
from lanegate.errors import LanegateError
from lanegate.sandbox import open_sandbox
repo = Path(sys.argv[1])
module = sys.argv[2] if len(sys.argv) > 2 else "probe_under_tmp"
try:
    with open_sandbox(repo) as sandbox:
        cmd = sandbox.command(
            [sys.executable, "-c", f"import {module}; print({module}.VALUE)"],
            env=dict(os.environ), cwd=repo,
        )
        done = subprocess.run(cmd.argv, env=cmd.env, cwd=repo, capture_output=True, text=True)
except LanegateError as exc:
    raise SystemExit(exc.diagnostic())
print(done.returncode, done.stdout.strip(), done.stderr.strip()[-300:])
"""


@pytest.fixture
def under_tmp() -> Iterator[Path]:
    """A folder under /tmp itself (the sandbox's mask), wherever pytest's tmp_path is."""
    folder = Path(tempfile.mkdtemp(prefix="lanegate-import-path-", dir="/tmp"))  # noqa: S108
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


def _venv_reaching(folder: Path, extra: Path) -> Path:
    """A venv under `folder` whose only packages come through a `.pth`: this interpreter's
    site-packages (lanegate, pytest) and `extra`."""
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    lines = [f"import site; site.addsitedir({p!r})\n" for p in site.getsitepackages()]
    lines.append(f"import site; site.addsitedir({str(extra)!r})\n")
    Path(purelib, "parent.pth").write_text("".join(lines), encoding="utf-8")
    return python


def test_a_site_packages_a_pth_adds_under_tmp_is_importable_inside(under_tmp: Path) -> None:
    extra = under_tmp / "extra"
    extra.mkdir()
    (extra / "probe_under_tmp.py").write_text("VALUE = 'reached'\n", encoding="utf-8")
    # a site-packages of lanegate's environment: it holds one of lanegate's dependencies
    (extra / "pluggy-0.0.dist-info").mkdir()
    repo = under_tmp / "repo"
    repo.mkdir()
    (repo / "a.txt").write_text("a\n", encoding="utf-8")
    python = _venv_reaching(under_tmp, extra)
    done = subprocess.run(
        [str(python), "-c", SANDBOXED, str(repo)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("0 reached"), done.stdout


def test_a_mask_a_pth_adds_that_is_not_lanegates_environment_stays_a_mask(
    under_tmp: Path,
) -> None:
    """A `.pth` adding /tmp itself (no distribution of lanegate's there): /tmp stays the sandbox's
    empty tmpfs (before, the run was refused; binding it would undo the mask)."""
    repo = under_tmp / "repo"
    repo.mkdir()
    python = _venv_reaching(under_tmp, Path("/tmp"))  # noqa: S108
    done = subprocess.run(
        [str(python), "-c", SANDBOXED, str(repo), "json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "/tmp (a .pth file of lanegate's interpreter adds it) stays hidden" in done.stderr


def test_an_editable_checkout_the_sandbox_hides_stays_hidden(under_tmp: Path) -> None:
    """A src-layout project installed editable from a checkout under /tmp: its `src/` (no
    installed metadata of lanegate's dependencies) is not bound back, and lanegate says so."""
    checkout_src = under_tmp / "checkout" / "src"
    checkout_src.mkdir(parents=True)
    (checkout_src / "proj_mod.py").write_text("VALUE = 'hidden checkout'\n", encoding="utf-8")
    repo = under_tmp / "repo"
    repo.mkdir()
    (repo / "a.txt").write_text("a\n", encoding="utf-8")
    python = _venv_reaching(under_tmp, checkout_src)
    done = subprocess.run(
        [str(python), "-c", SANDBOXED, str(repo), "proj_mod"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "hidden checkout" not in done.stdout, done.stdout
    assert done.stdout.startswith("1 ") and "No module named 'proj_mod'" in done.stdout
    assert f"{checkout_src} (a .pth file of lanegate's interpreter adds it) stays hidden" in (
        done.stderr
    )
