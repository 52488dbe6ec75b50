"""The command refuses to run beside the unrelated `lanegate` distribution (issue: the name is taken)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def _run(extra_path: Path | None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if extra_path is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(extra_path), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "lanegate", "--version"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def _namesake(root: Path, name: str) -> Path:
    info = root / f"{name.replace('-', '_')}-1.2.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.2.0\n")
    return root


def test_the_namesake_beside_lanegate_ci_is_refused_with_its_location(tmp_path: Path) -> None:
    site = _namesake(tmp_path / "site", "lanegate")
    done = _run(site)
    assert done.returncode == 2, done
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert "'lanegate' (1.2.0" in line and str(site) in line
    assert "pip uninstall -y lanegate" in line and "Traceback" not in done.stderr


def test_an_unrelated_distribution_and_none_at_all_leave_the_command_alone(tmp_path: Path) -> None:
    assert _run(None).returncode == 0
    for name in ("lanegate-something", "Lanegate.Other"):
        site = _namesake(tmp_path / name, name)
        # a folder named with a dash, as no installer writes it, is matched by its declared name
        (site / "lanegate-extra-1.0.dist-info").mkdir()
        (site / "lanegate-extra-1.0.dist-info" / "METADATA").write_text("Name: lanegate-extra\n")
        done = _run(site)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("lanegate ")


def test_lanegate_ci_is_the_installed_distribution() -> None:
    from importlib import metadata

    from lanegate.distribution import DISTRIBUTION

    assert metadata.distribution(DISTRIBUTION).metadata["Name"] == "lanegate-ci"
