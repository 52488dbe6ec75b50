"""Where a sandbox stages its own files: RAM when it has room for a small tree, disk otherwise."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lanegate.errors import SandboxError
from lanegate.sandbox import open_sandbox
from lanegate.sandbox.staging import (
    MAX_RAM_TREE,
    ROOM_FACTOR,
    StagingPlace,
    choose_place,
    make_private_folder,
    ram_budget,
    staging_place,
)
from tests.deeptree import remove_deep

RAM = Path("/ram")


@given(
    tree=st.integers(0, 2 * MAX_RAM_TREE),
    disk=st.integers(0, 1 << 40),
    free=st.none() | st.integers(0, 1 << 40),
    tmpdir=st.booleans(),
)
def test_the_ram_folder_is_chosen_only_with_room_and_never_widens_the_budget(
    tree: int, disk: int, free: int | None, tmpdir: bool
) -> None:
    place = choose_place(tree, disk, RAM, free, tmpdir)
    assert place.budget <= disk
    budget = min(disk, ram_budget(tree))
    in_ram = not tmpdir and tree <= MAX_RAM_TREE and free is not None
    in_ram = in_ram and free is not None and free >= ROOM_FACTOR * budget
    assert place == (StagingPlace(RAM, budget) if in_ram else StagingPlace(None, disk))


def test_a_small_tree_stages_in_a_writable_ram_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TMPDIR", raising=False)
    ram = tmp_path / "shm"
    ram.mkdir()
    assert staging_place(1000, 1 << 30, ram=ram) == StagingPlace(ram, ram_budget(1000))
    folder = make_private_folder(staging_place(1000, 1 << 30, ram=ram))
    assert folder.parent == ram and folder.is_dir()


def test_a_user_tmpdir_a_large_tree_or_no_ram_folder_stages_on_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ram = tmp_path / "shm"
    ram.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    assert staging_place(1000, 5, ram=ram) == StagingPlace(None, 5)
    monkeypatch.delenv("TMPDIR")
    assert staging_place(MAX_RAM_TREE + 1, 5, ram=ram) == StagingPlace(None, 5)
    assert staging_place(1000, 5, ram=tmp_path / "missing") == StagingPlace(None, 5)
    (tmp_path / "file").write_text("")
    assert staging_place(1000, 5, ram=tmp_path / "file") == StagingPlace(None, 5)


def test_a_ram_folder_that_vanished_falls_back_to_the_temporary_folder(tmp_path: Path) -> None:
    folder = make_private_folder(StagingPlace(tmp_path / "gone", 10))
    try:
        assert folder.parent == Path(tempfile.gettempdir())
    finally:
        folder.rmdir()


def test_the_sandbox_stages_its_snapshots_where_staging_place_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TMPDIR", raising=False)
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "tests" / "expected.txt").write_text("expected\n")
    with open_sandbox(repo) as sandbox:
        argv = sandbox.command(["true"], env={}, frozen=["tests"]).argv
        parent = staging_place(1, 1).parent or Path(tempfile.gettempdir())
        sources = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--ro-bind"]
        snapshot = next(Path(s) for s in sources if "frozen-" in s)
        assert snapshot.is_relative_to(parent)
        assert (snapshot / "expected.txt").read_text() == "expected\n"
    assert not snapshot.exists()  # removed with the sandbox


def test_a_test_folder_too_deep_to_stage_fails_closed_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the snapshot's paths are longer than the tree's: a file the tree holds at just under the
    # path limit cannot be staged (ENAMETOOLONG), which must be a SandboxError, not a traceback
    monkeypatch.delenv("TMPDIR", raising=False)
    top = Path(tempfile.mkdtemp(prefix="lg-", dir="/tmp"))  # noqa: S108 - a short path on purpose
    try:
        repo = top / "r"
        deep = repo / "tests"
        limit = os.pathconf("/", "PC_PATH_MAX")
        while len(str(deep)) < limit - 250:
            deep = deep / ("d" * 200)
        deep = deep / ("d" * (limit - 10 - len(str(deep))))
        deep.mkdir(parents=True)
        (deep / "x.txt").write_text("x")
        with open_sandbox(repo) as sandbox, pytest.raises(SandboxError) as raised:
            sandbox.command([sys.executable, "-c", "pass"], env={}, frozen=["tests"])
        message = str(raised.value)
        assert "\n" not in message and len(message) < 300
        assert message.startswith("frozen folder tests: could not be staged at ")
        assert "File name too long" in message
    finally:
        remove_deep(top)
