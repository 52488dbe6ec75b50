"""Walking a tree without recursion: what os.walk answers, at any depth."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.treewalk import tree_bytes, walk
from tests.deeptree import remove_deep

NAMES = st.sampled_from(["a", "b", "c.txt", "d"])


def _build(root: Path, paths: list[list[str]]) -> None:
    for parts in paths:
        folder = root.joinpath(*parts[:-1])
        if any(p.is_file() for p in [folder, *folder.parents] if p.is_relative_to(root)):
            continue
        folder.mkdir(parents=True, exist_ok=True)
        leaf = folder / parts[-1]
        if not leaf.exists():
            leaf.write_text("x")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(NAMES, min_size=1, max_size=4), max_size=12))
def test_walk_answers_what_os_walk_answers(paths: list[list[str]]) -> None:
    root = Path(tempfile.mkdtemp())
    _build(root, paths)
    (root / "link").symlink_to(".")  # a folder link: listed, not walked into
    ours = {(f, tuple(sorted(d)), tuple(sorted(n))) for f, d, n in walk(root)}
    theirs = {(f, tuple(sorted(d)), tuple(sorted(n))) for f, d, n in os.walk(root)}
    assert ours == theirs


def test_pruning_in_place_and_depth_past_the_recursion_limit(tmp_path: Path) -> None:
    deep = tmp_path
    for _ in range(1200):
        deep = deep / "a"
        deep.mkdir()
    (tmp_path / "skip").mkdir()
    (tmp_path / "skip" / "hidden.txt").write_text("x")
    try:
        seen = 0
        for folder, dirs, _files in walk(tmp_path):
            dirs[:] = [d for d in dirs if d != "skip"]
            seen += 1
            assert "skip" not in folder
        assert seen == 1201
    finally:
        remove_deep(tmp_path / "a")
    assert not (tmp_path / "a").exists()


def test_tree_bytes_counts_files_and_links_and_leaves_out_skipped_folders(tmp_path: Path) -> None:
    (tmp_path / "keep" / "deep").mkdir(parents=True)
    (tmp_path / "keep" / "deep" / "a.bin").write_bytes(b"x" * 100)
    (tmp_path / "skip").mkdir()
    (tmp_path / "skip" / "big.bin").write_bytes(b"y" * 10_000)
    (tmp_path / "top.txt").write_bytes(b"z" * 7)
    (tmp_path / "link").symlink_to("skip/big.bin")  # its own size, not its target's
    (tmp_path / "folder-link").symlink_to("skip")  # listed as a folder, never walked into
    link = len("skip/big.bin")
    assert tree_bytes(tmp_path, {tmp_path / "skip"}) == 100 + 7 + link
    assert tree_bytes(tmp_path) == 100 + 10_000 + 7 + link
    assert tree_bytes(tmp_path / "missing") == 0
