"""What lanegate's interpreter imports from stays importable in the sandbox, wherever it lives.

A venv may reach another's packages through a `.pth` file (`site.addsitedir`), as the real-projects
benchmark's venv does; when that folder is under `/tmp`, which every sandbox replaces with an empty
tmpfs, pytest went missing inside with nothing saying why.
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
try:
    with open_sandbox(repo) as sandbox:
        cmd = sandbox.command(
            [sys.executable, "-c", "import probe_under_tmp; print(probe_under_tmp.VALUE)"],
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


def test_a_folder_a_pth_adds_under_tmp_is_importable_inside(under_tmp: Path) -> None:
    extra = under_tmp / "extra"
    extra.mkdir()
    (extra / "probe_under_tmp.py").write_text("VALUE = 'reached'\n", encoding="utf-8")
    repo = under_tmp / "repo"
    repo.mkdir()
    (repo / "a.txt").write_text("a\n", encoding="utf-8")
    python = _venv_reaching(under_tmp, extra)
    done = subprocess.run(
        [str(python), "-c", SANDBOXED, str(repo)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("0 reached"), done.stdout


def test_an_import_folder_that_is_a_mask_is_refused_by_name(under_tmp: Path) -> None:
    repo = under_tmp / "repo"
    repo.mkdir()
    python = _venv_reaching(under_tmp, Path("/tmp"))  # noqa: S108
    done = subprocess.run(
        [str(python), "-c", SANDBOXED, str(repo)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1
    assert done.stderr.startswith("/tmp: lanegate's interpreter imports from it"), done.stderr
    assert "(hint: install lanegate and the tests' dependencies into a venv outside /tmp" in (
        done.stderr
    )
