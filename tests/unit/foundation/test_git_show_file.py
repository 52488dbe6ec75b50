"""`git.show_file` in one `cat-file --batch` process answers what the two-call form answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from lanegate import git
from lanegate.errors import GitError
from tests.gitrepo import Repo
from tests.gitrepo import git as run

NAMES = {
    "plain.py": b"x = 1\n",
    "no-newline.txt": b"end",
    "empty.txt": b"",
    "binary.bin": bytes(range(256)) * 3 + b"\n\n",
    "sp ace 12.txt": b"spaces and a number\n",
    "a 1 2": b"looks like a batch header\n",
    "-dash.py": b"y = 2\n",
    "caf\u00e9.py": b"z = 3\n",
    "new\nline.py": b"a line break in the name\n",
    "dir/nested.py": b"n = 4\n",
}


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Repo, str]:
    r = Repo(tmp_path / "repo")
    for name, data in NAMES.items():
        r.write(name, data)
    (r.path / "link").symlink_to("plain.py")
    run(r.path, "add", "-A")
    # a submodule entry (gitlink): its commit is not an object of this repository
    run(r.path, "update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},sub")
    return r, r.commit("all kinds")


@pytest.mark.parametrize("name", [*NAMES, "link", "missing.py", "dir/missing", "sub"])
def test_one_process_answers_as_two_do(repo: tuple[Repo, str], name: str) -> None:
    r, commit = repo
    expected = git._show_file_by_type(r.path, commit, name)
    assert git.show_file(r.path, commit, name) == expected
    if name in NAMES:
        assert expected == NAMES[name]


def test_a_folder_is_refused_both_ways(repo: tuple[Repo, str]) -> None:
    r, commit = repo
    for show in (git.show_file, git._show_file_by_type):
        with pytest.raises(GitError, match="is a tree, not a file"):
            show(r.path, commit, "dir")


def test_a_commit_that_does_not_exist_has_no_files(repo: tuple[Repo, str]) -> None:
    r, _ = repo
    assert git.show_file(r.path, "0" * 40, "plain.py") is None


def test_a_full_commit_id_is_asked_of_git_once(tmp_path: Path) -> None:
    """What a full id names cannot change: the second answer comes without git (here git could
    no longer give it); a branch name is asked again, and sees where the branch went."""
    r = Repo(tmp_path / "memo")
    r.write("f.py", "one = 1\n")
    first = r.commit("one")
    assert git.show_file(r.path, first, "f.py") == b"one = 1\n"
    assert git.show_file(r.path, "HEAD", "f.py") == b"one = 1\n"
    r.write("f.py", "two = 2\n")
    r.commit("two")
    assert git.show_file(r.path, "HEAD", "f.py") == b"two = 2\n"
    for pack in (r.path / ".git" / "objects").iterdir():
        if pack.name not in ("info", "pack"):
            for blob in pack.iterdir():
                blob.unlink()
    assert git.show_file(r.path, first, "f.py") == b"one = 1\n"
    assert git.show_file(r.path, "HEAD", "f.py") is None  # asked again: git has lost it


def test_tree_modes_names_links_and_leaves_out_what_is_missing(
    repo: tuple[Repo, str],
) -> None:
    r, commit = repo
    asked = ["plain.py", "link", "-dash.py", "caf\u00e9.py", "missing.py"]
    assert git.tree_modes(r.path, commit, asked) == {
        "plain.py": b"100644",
        "link": git.SYMLINK_MODE,
        "-dash.py": b"100644",
        "caf\u00e9.py": b"100644",
    }
    assert git.tree_modes(r.path, commit, []) == {}


def test_a_full_ids_commit_and_merge_base_are_asked_once_a_branch_every_time(
    tmp_path: Path,
) -> None:
    r = Repo(tmp_path / "memo")
    r.write("a.txt", b"a\n")
    first = r.commit("first")
    run(r.path, "checkout", "-q", "-b", "side")
    r.write("b.txt", b"b\n")
    side = r.commit("side")
    assert git.resolve_commit(r.path, first) == first
    assert git.merge_base(r.path, first, side) == first
    assert git.resolve_commit(r.path, "HEAD") == side
    # with the objects gone, the answers about full ids still come (kept), a branch's does not
    (r.path / ".git" / "objects").rename(r.path / "moved-objects")
    assert git.resolve_commit(r.path, first) == first
    assert git.merge_base(r.path, first, side) == first
    with pytest.raises(GitError):
        git.resolve_commit(r.path, "HEAD")


def _lose_objects(r: Repo) -> None:
    """Every loose object moved away: from here on only the memo can answer about them."""
    (r.path / ".git" / "objects").rename(r.path / "moved-objects")


def test_one_prefetch_answers_every_name_show_file_asks_after(repo: tuple[Repo, str]) -> None:
    """One batch for all kinds of names: what it keeps is what `show_file` would have said (files
    and missing paths); a folder, a gitlink and a name with a line break are left to `show_file`,
    which asks git again and says what it found."""
    r, commit = repo
    names = [*NAMES, "link", "missing.py", "dir/missing", "sub", "dir"]
    expected = {n: git._show_file_by_type(r.path, commit, n) for n in names if n not in ("dir",)}
    git.prefetch_files(r.path, ((commit, n) for n in names))
    kept = {n for n in names if (str(r.path), commit, n) in git._memo}
    assert kept == set(names) - {"new\nline.py", "dir"}
    _lose_objects(r)
    for name in kept:
        assert git.show_file(r.path, commit, name) == expected[name], name
    with pytest.raises(GitError):
        git.show_file(r.path, commit, "dir")  # not kept: asked again, and git has lost it


def test_prefetch_keeps_nothing_for_a_branch_name_or_a_single_file(tmp_path: Path) -> None:
    r = Repo(tmp_path / "memo")
    r.write("a.py", "a = 1\n")
    r.write("b.py", "b = 1\n")
    first = r.commit("first")
    git.prefetch_files(r.path, [("HEAD", "a.py"), ("HEAD", "b.py"), (first, "a.py")])
    assert (str(r.path), "HEAD", "a.py") not in git._memo
    assert (str(r.path), first, "a.py") not in git._memo  # one file: show_file asks it itself
    git.prefetch_files(r.path, [(first, "a.py"), (first, "b.py"), (first, "a.py")])
    assert git._memo[(str(r.path), first, "b.py")] == b"b = 1\n"


def test_a_full_ids_file_list_and_zero_context_diff_are_asked_once(tmp_path: Path) -> None:
    r = Repo(tmp_path / "memo")
    r.write("a.py", "a = 1\nb = 2\n")
    first = r.commit("first")
    r.write("a.py", "a = 1\nb = 3\n")
    r.write("c/d.py", "d = 4\n")
    second = r.commit("second")
    names = git.file_names(r.path, second)
    diff = git.zero_context_diff(r.path, first, second, "a.py")
    assert names.split(b"\0") == [b"a.py", b"c/d.py", b""]
    assert b"@@ -2 +2 @@" in diff and b"-b = 2" in diff and b"+b = 3" in diff
    assert git.file_names(r.path, "HEAD") == names
    _lose_objects(r)
    assert git.file_names(r.path, second) == names
    assert git.zero_context_diff(r.path, first, second, "a.py") == diff
    with pytest.raises(GitError):
        git.file_names(r.path, "HEAD")  # a branch is asked every time
    with pytest.raises(GitError):
        git.zero_context_diff(r.path, "HEAD~1", "HEAD", "a.py")


def test_prefetch_asks_for_no_more_bytes_than_the_memo_has_room_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The files fetched in one batch fit in what the memo has left: a diff's many big files are
    never read in one go; what did not fit is asked by `show_file` itself, one at a time."""
    r = Repo(tmp_path / "memo")
    r.write("small.py", b"s" * 10)
    r.write("tiny.py", b"t" * 20)
    r.write("big.py", b"b" * 5000)
    commit = r.commit("sizes")
    monkeypatch.setattr(git, "_memo", {})
    monkeypatch.setattr(git, "_memo_size", [0])
    monkeypatch.setattr(git, "MEMO_BYTES", 100)
    names = ["small.py", "big.py", "tiny.py", "gone.py"]
    git.prefetch_files(r.path, ((commit, n) for n in names))
    key = (str(r.path), commit)
    assert git._memo == {
        (*key, "small.py"): b"s" * 10,
        (*key, "tiny.py"): b"t" * 20,
        (*key, "gone.py"): None,
    }
    assert git.show_file(r.path, commit, "big.py") == b"b" * 5000  # asked on its own


def test_bytes_cut_short_are_an_error_naming_the_file(
    repo: tuple[Repo, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch answer whose bytes end before its size says (git cannot give this; a reader that
    trusted it would judge half a file) fails closed for one file and for a prefetch alike."""
    r, commit = repo
    real = git.run_git

    def cut(repo_path: Path, *args: str, **kw: object) -> bytes:
        out = real(repo_path, *args, **kw)  # type: ignore[arg-type]
        return out[:-4] if args[:2] == ("cat-file", "--batch") else out

    monkeypatch.setattr(git, "run_git", cut)
    with pytest.raises(GitError, match=r"plain\.py at .*: git cat-file gave 3 of 6 bytes"):
        git.show_file(r.path, commit, "plain.py")
    with pytest.raises(GitError, match=r"-dash\.py at .*: git cat-file gave"):
        git.prefetch_files(r.path, [(commit, "empty.txt"), (commit, "-dash.py")])
