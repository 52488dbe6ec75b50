"""The release workflow's build job, run by act offline on a tag push of a copy of this checkout.

What act can run: the tag check against `__version__` and CHANGELOG.md, and the real sdist and wheel
build, uploaded by the upload-artifact stand-in. What it cannot: the publish job talks to GitHub's
API (the release, the major tag), which is unreachable here; tests/github/test_workflows_static.py
and the linters cover its shape.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tarfile
import zipfile
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
import yaml

from lanegate._version import __version__
from tests.act.harness import ROOT, ActResult, concurrently, run_act, ship_lanegate
from tests.gitrepo import git

WORKFLOW = ".github/workflows/release.yml"
# a release commit: the files of a lanegate release, the release tooling, and the changelog
RELEASE_FILES = (".ci", "CHANGELOG.md")
PIP_CONFIG = Path.home() / ".config" / "pip" / "pip.conf"


def _release_repo(path: Path, date: str | None) -> Path:
    """A git repository holding a copy of this checkout, its changelog section for this version
    dated `date` (None leaves it as committed), tagged v<version>."""
    ship_lanegate(path)
    for name in RELEASE_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, path / name)
        else:
            shutil.copy2(source, path / name)
    changelog = path / "CHANGELOG.md"
    if date is not None:
        text = changelog.read_text(encoding="utf-8")
        heading = re.compile(rf"^## \[{re.escape(__version__)}\] - .*$", re.M)
        changelog.write_text(heading.sub(f"## [{__version__}] - {date}", text), encoding="utf-8")
    git(path, "init", "-q", "-b", "main")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", f"release {__version__}")
    git(path, "tag", f"v{__version__}")
    return path


def _tag_push(path: Path, work: Path) -> ActResult:
    tag = f"v{__version__}"
    sha = git(path, "rev-parse", "HEAD").strip()
    event = {
        "ref": f"refs/tags/{tag}",
        "after": sha,
        "repository": {"full_name": "lanegate/lanegate", "name": "lanegate"},
    }
    return run_act(
        path,
        WORKFLOW,
        event,
        work,
        lanegate=path,
        event_name="push",
        job="build",
        env={
            "LANEGATE_ACT_REPO": str(path),
            **({"PIP_CONFIG_FILE": str(PIP_CONFIG)} if PIP_CONFIG.is_file() else {}),
        },
        timeout=600,
    )


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ActResult]]:
    root = tmp_path_factory.mktemp("act-release")
    repos = {
        "dated": _release_repo(root / "dated" / "repo", "2026-12-07"),
        "undated": _release_repo(root / "undated" / "repo", None),
    }
    yield concurrently(
        {name: partial(_tag_push, repo, root / name / "act") for name, repo in repos.items()}
    )


def test_a_dated_release_builds_the_sdist_and_the_wheel(outcomes: dict[str, ActResult]) -> None:
    result = outcomes["dated"]
    assert result.job_succeeded("build"), result.log[-4000:]
    files = result.artifacts / "lanegate-release"
    dist = files / "dist"
    sdist = dist / f"lanegate_ci-{__version__}.tar.gz"
    wheel = dist / f"lanegate_ci-{__version__}-py3-none-any.whl"
    assert sorted(p.name for p in dist.iterdir()) == sorted([sdist.name, wheel.name])
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    # the package data an installed lanegate reads: the demo bundle and the JSON Schemas
    assert {"lanegate/oracles.py", "lanegate/demo/bundle.json"} <= names
    assert any(n.startswith("lanegate/ledgers/schemas/") for n in names)
    with tarfile.open(sdist) as archive:
        assert f"lanegate_ci-{__version__}/pyproject.toml" in archive.getnames()
    notes = (files / "notes.md").read_text(encoding="utf-8").strip()
    # this version's section of the changelog, without its heading or the sections after it
    assert notes and notes in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [" not in notes


def test_an_undated_changelog_section_fails_the_build_with_one_line(
    outcomes: dict[str, ActResult],
) -> None:
    result = outcomes["undated"]
    assert result.job_failed("build")
    assert f"release: CHANGELOG.md: section [{__version__}] is dated 'unreleased'" in result.log
    assert not (result.artifacts / "lanegate-release").exists()


def test_moving_the_major_tag_without_its_token_fails_with_one_line() -> None:
    # act cannot run the publish job (GitHub's API); its last step is run here as bash would
    doc = yaml.safe_load((ROOT / WORKFLOW).read_text(encoding="utf-8"))
    publish = doc["jobs"]["publish"]
    assert publish["environment"] == "release" and publish["needs"] == ["build"]
    step = publish["steps"][-1]
    assert step["env"]["GH_TOKEN"] == "${{ secrets.RELEASE_TAG_TOKEN }}"
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", step["run"]],
        env={"PATH": "/usr/bin:/bin", "GH_TOKEN": "", "TAG": "v1.2.3", "SHA": "0" * 40},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1
    assert done.stdout.startswith(
        "::error title=release::the release environment has no secret RELEASE_TAG_TOKEN: moving v1 "
    )
