"""The session-wide check that the suite leaves device nodes and files outside its temporary folders
as it found them (tests/conftest.py, tests/hostwatch.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests import hostwatch

ROOT = Path(__file__).resolve().parent.parent.parent


def test_a_device_replaced_by_a_file_and_a_changed_file_are_named(tmp_path: Path) -> None:
    watched = tmp_path / "config"
    watched.write_text("[core]\n")
    devices = ("/dev/null", str(tmp_path / "fake-null"))
    before = hostwatch.snapshot(devices, (str(watched),), checkout=False)
    assert before[f"device {tmp_path / 'fake-null'}"].startswith("absent")
    assert before["device /dev/null"].startswith("device ")
    assert hostwatch.changes(before, hostwatch.snapshot(devices, (str(watched),), False)) == []
    (tmp_path / "fake-null").write_text("")  # what was found in place of /dev/null
    watched.write_text("[core]\n\thooksPath = /tmp/x\n")
    found = hostwatch.changes(before, hostwatch.snapshot(devices, (str(watched),), False))
    assert len(found) == 2
    assert f"device {tmp_path / 'fake-null'}: was absent" in found[0]
    assert "is not a device (mode 100000, 0 bytes)" in found[0]
    assert found[1].startswith(f"file {watched}: was file 644 sha256:")


def test_a_session_that_changes_a_watched_file_fails(tmp_path: Path) -> None:
    watched = tmp_path / "watched.txt"
    watched.write_text("before\n")
    folder = ROOT / "tests" / "unit" / f"hostwatch_probe_{os.getpid()}"
    folder.mkdir()
    try:
        (folder / "__init__.py").write_text("")
        (folder / "test_probe.py").write_text(
            f"def test_writes():\n    open({str(watched)!r}, 'w').write('after')\n"
        )
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
        env[hostwatch.EXTRA_VAR] = str(watched)
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:randomly", str(folder)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
    finally:
        for name in ("test_probe.py", "__init__.py"):
            (folder / name).unlink()
        folder.rmdir()
    assert done.returncode == 1, done.stdout
    assert "1 passed" in done.stdout
    assert f"outside the test folders: file {watched}: was file" in done.stdout
