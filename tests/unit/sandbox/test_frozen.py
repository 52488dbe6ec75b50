"""Frozen folders, with real bubblewrap processes: what head code can and cannot do to them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lanegate.errors import SandboxError
from lanegate.sandbox import open_sandbox
from lanegate.sandbox.frozen import stage_frozen
from tests.deeptree import remove_deep
from tests.gitrepo import Repo

# every way red-team pass 7's review thought of to change what a base test reads, then what is seen
ATTACKS = r"""
import json, os, shutil, sys
tried = {}
def attempt(name, act):
    try:
        act()
        tried[name] = "done"
    except OSError as exc:
        tried[name] = type(exc).__name__ + ":" + str(exc.errno)
def write(path, text):
    with open(path, "w") as handle:
        handle.write(text)
attempt("write", lambda: write("tests/data/expected.txt", "forged\n"))
attempt("append", lambda: open("tests/data/expected.txt", "a").write("x"))
attempt("truncate", lambda: os.truncate("tests/data/expected.txt", 0))
attempt("chmod", lambda: os.chmod("tests/data/expected.txt", 0o777))
attempt("remove", lambda: os.remove("tests/data/expected.txt"))
attempt("new_file", lambda: write("tests/data/new.txt", "x"))
attempt("rename_folder", lambda: os.rename("tests/data", "tests/old"))
attempt("rename_tests", lambda: os.rename("tests", "tests_old"))
attempt("rename_pkg", lambda: os.rename("pkg", "pkg_old"))
attempt("rename_nested", lambda: os.rename("pkg/tests", "pkg/old"))
attempt("rmtree", lambda: shutil.rmtree("pkg/tests"))
attempt("replace_over", lambda: (write("pkg/forged.txt", "forged\n"), os.replace("pkg/forged.txt", "pkg/tests/golden.txt")))
attempt("new_in_pinned", lambda: write("pkg/made.txt", "made\n"))
attempt("behind_link", lambda: write("root_data.txt", "forged\n"))
seen = {
    "expected": open("tests/data/expected.txt").read(),
    "golden": open("pkg/tests/golden.txt").read(),
    "module": open("pkg/mod.py").read(),
    "restored": open("tests/test_restored.py").read(),
    "listing": sorted(os.listdir("tests")),
    "gone": os.path.exists("tests/added_by_diff.txt"),
    "through_link": open("tests/to_root").read(),
    "link_kept": os.path.islink("tests/inside"),
    "roundabout": (
        os.remove("via"), os.makedirs("via/data"),
        open("via/data/expected.txt", "w").write("forged\n"),
        open("tests/roundabout").read(),
    )[-1],
}
print(json.dumps({"tried": tried, "seen": seen}))
"""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "tests" / "data").mkdir(parents=True)
    (root / "tests" / "__pycache__").mkdir()
    (root / "pkg" / "tests").mkdir(parents=True)
    (root / "tests" / "data" / "expected.txt").write_text("expected\n")
    (root / "tests" / "test_restored.py").write_text("HEAD = True\n")
    (root / "tests" / "added_by_diff.txt").write_text("added\n")
    (root / "tests" / "__pycache__" / "forged.cpython-311.pyc").write_bytes(b"\0" * 16)
    (root / "tests" / "stray.pyc").write_bytes(b"\0" * 16)
    (root / "tests" / "inside").symlink_to("data/expected.txt")
    (root / "tests" / "outside").symlink_to("/etc/passwd")
    (root / "root_data.txt").write_text("root data\n")
    (root / "tests" / "to_root").symlink_to("../root_data.txt")
    (root / "via").symlink_to("tests")  # a link into the folder through a link outside it
    (root / "tests" / "roundabout").symlink_to("../via/data/expected.txt")
    (root / "pkg" / "tests" / "golden.txt").write_text("golden\n")
    (root / "pkg" / "mod.py").write_text("X = 1\n")
    return root


def _attack(
    repo: Path, tmp_path: Path, code: str, frozen: list[str]
) -> dict[str, dict[str, object]]:
    base = tmp_path / "base-version.py"
    base.write_text("BASE = True\n")
    with open_sandbox(repo) as sandbox:
        cmd = sandbox.command(
            [sys.executable, "-c", code],
            env=dict(os.environ),
            cwd=repo,
            overlays={repo / "tests" / "test_restored.py": base},
            removed=["tests/added_by_diff.txt"],
            frozen=frozen,
        )
        done = subprocess.run(
            cmd.argv, env=cmd.env, cwd=repo, capture_output=True, text=True, timeout=60
        )
    assert done.returncode == 0, done.stderr
    result: dict[str, dict[str, object]] = json.loads(done.stdout)
    return result


def test_a_frozen_folder_cannot_be_changed_renamed_or_replaced(repo: Path, tmp_path: Path) -> None:
    got = _attack(repo, tmp_path, ATTACKS, ["tests", "pkg/tests"])
    tried, seen = got["tried"], got["seen"]
    assert {k for k, v in tried.items() if v == "done"} == {"new_in_pinned", "behind_link"}
    # EROFS inside the snapshot, EBUSY for a mount point or a folder above one, EXDEV for a file
    # moved over from a pinned folder
    assert {v for k, v in tried.items() if k not in ("new_in_pinned", "behind_link")} <= {
        "OSError:30",
        "OSError:16",
        "OSError:18",
    }
    for name in ("rename_tests", "rename_pkg", "rename_nested"):
        assert tried[name] == "OSError:16", name
    assert seen["expected"] == "expected\n" and seen["golden"] == "golden\n"
    assert seen["module"] == "X = 1\n"  # the pinned folder above was filled as the copy fills
    assert seen["restored"] == "BASE = True\n"  # the overlay is in the snapshot
    assert seen["gone"] is False  # removed paths are left out
    # byte code and a link out of the tree are left out, as the copy leaves them
    assert seen["listing"] == ["data", "inside", "roundabout", "test_restored.py", "to_root"]
    # a kept link is re-pointed from where it resolves, not through `via`, which head code replaced
    assert seen["roundabout"] == "expected\n"
    # a link into the folder stays a link; one to a file elsewhere is a copy the command cannot
    # rewrite behind it (root_data.txt was rewritten in the copy of the tree)
    assert seen["link_kept"] is True and seen["through_link"] == "root data\n"
    # nothing changed outside
    assert (repo / "tests" / "data" / "expected.txt").read_text() == "expected\n"
    assert (repo / "tests" / "test_restored.py").read_text() == "HEAD = True\n"
    assert not (repo / "pkg" / "made.txt").exists()


RENAME_AWAY = r"""
import json, os
os.rename("pkg", "pkg_old")
os.makedirs("pkg/tests")
open("pkg/tests/golden.txt", "w").write("forged\n")
print(json.dumps({"tried": {}, "seen": {"golden": open("pkg/tests/golden.txt").read()}}))
"""


def test_unfrozen_a_folder_renamed_away_is_replaced(repo: Path, tmp_path: Path) -> None:
    # what the pinning above a frozen folder is for: a folder that only holds a read-only file
    # (or folder) can be renamed, and a new one made in its place
    assert _attack(repo, tmp_path, RENAME_AWAY, [])["seen"]["golden"] == "forged\n"


def test_stage_frozen_refuses_paths_outside_and_skips_links(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "real" / "tests").mkdir(parents=True)
    (repo / "linked").symlink_to("real")
    for bad in ["/etc", "../x", "", "."]:
        with pytest.raises(SandboxError, match="not a folder inside the tree"):
            stage_frozen(repo, [bad], tmp_path / "into")
    tree = stage_frozen(repo, ["linked/tests", "missing", "real/tests"], tmp_path / "into")
    assert list(tree.snapshots) == ["real/tests"] and [f for f, _ in tree.pinned] == ["real"]


def test_an_overlay_replaces_the_work_tree_file_only_in_the_snapshot(
    repo: Path, tmp_path: Path
) -> None:
    trusted = tmp_path / "trusted.txt"
    trusted.write_text("trusted\n")
    tree = stage_frozen(
        repo,
        ["tests"],
        tmp_path / "into",
        overlays={repo / "tests" / "data" / "expected.txt": trusted},
    )
    assert (tree.snapshots["tests"] / "data" / "expected.txt").read_text() == "trusted\n"
    assert (repo / "tests" / "data" / "expected.txt").read_text() == "expected\n"


def test_staging_leaves_the_work_tree_files_inodes_alone(repo: Path, tmp_path: Path) -> None:
    # a hard link would change the link count and ctime that the fixture lane watches
    expected = repo / "tests" / "data" / "expected.txt"
    before = os.stat(expected)
    stage_frozen(repo, ["tests"], tmp_path / "into")
    after = os.stat(expected)
    assert (after.st_nlink, after.st_ctime_ns) == (before.st_nlink, before.st_ctime_ns)


def test_commands_that_freeze_alike_share_one_snapshot(repo: Path) -> None:
    def snapshots(argv: list[str]) -> list[str]:
        return [
            argv[i + 1]
            for i, a in enumerate(argv[:-2])
            if a == "--ro-bind" and "frozen-" in argv[i + 1]
        ]

    with open_sandbox(repo) as sandbox:
        first = sandbox.command(["true"], env={}, frozen=["tests"])
        again = sandbox.command(["true"], env={}, frozen=["tests"])
        other = sandbox.command(["true"], env={}, frozen=["tests"], removed=["tests/stray.pyc"])
    assert len(snapshots(first.argv)) == 1
    assert snapshots(first.argv) == snapshots(again.argv) != snapshots(other.argv)


# red-team pass 8 (2026-12-06, against the first version of the freeze)


def test_a_link_to_a_folder_elsewhere_is_staged_as_a_copy(tmp_path: Path) -> None:
    # `tests/golden -> ../golden` was left out: its base test failed at head and at base alike,
    # was excused as pre-existing, and the head's bug passed
    repo = tmp_path / "repo"
    (repo / "golden" / "deep").mkdir(parents=True)
    (repo / "golden" / "deep" / "cases.txt").write_text("cases\n")
    (repo / "golden" / "loop").symlink_to("..")  # a cycle back up: left out
    (repo / "tests").mkdir()
    (repo / "tests" / "golden").symlink_to("../golden")
    tree = stage_frozen(repo, ["tests"], tmp_path / "into")
    staged = tree.snapshots["tests"] / "golden"
    assert not staged.is_symlink() and (staged / "deep" / "cases.txt").read_text() == "cases\n"
    assert not (staged / "loop").exists()


def test_links_never_copy_git_or_hidden_files_or_leave_the_tree(tmp_path: Path) -> None:
    # `tests/leak.py -> ../.git/config` copied the unsanitized git config into the snapshot
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "config").write_text("[http]\n\textraheader = AUTHORIZATION: secret\n")
    (repo / "hidden").mkdir()
    (repo / "hidden" / "out.json").write_text("{}")
    (repo / "tests").mkdir()
    (repo / "tests" / "leak.py").symlink_to("../.git/config")
    (repo / "tests" / "hidden.json").symlink_to("../hidden/out.json")
    (repo / "tests" / "passwd").symlink_to("/etc/passwd")
    tree = stage_frozen(repo, ["tests"], tmp_path / "into", skip=[repo / ".git", repo / "hidden"])
    assert sorted(p.name for p in tree.snapshots["tests"].iterdir()) == []


def test_links_cannot_multiply_the_bytes_staged(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "big.bin").write_bytes(b"x" * 10_000)
    for i in range(20):
        (repo / "tests" / f"m{i}.py").symlink_to("../big.bin")
    with pytest.raises(SandboxError, match="passes 100000 bytes"):
        stage_frozen(repo, ["tests"], tmp_path / "into", limit=100_000)
    assert stage_frozen(repo, ["tests"], tmp_path / "again", limit=300_000).snapshots


def test_an_overlay_is_put_in_place_of_a_staged_link_never_through_it(tmp_path: Path) -> None:
    # a folder of the base replaced at head by a link into the tree: the restored file under it
    # was written through the link, into the real checkout
    repo = tmp_path / "repo"
    (repo / "tests" / "victim").mkdir(parents=True)
    (repo / "tests" / "victim" / "expected.txt").write_text("real\n")
    (repo / "tests" / "dir.py").symlink_to(repo / "tests" / "victim")
    trusted = tmp_path / "base.txt"
    trusted.write_text("base\n")
    tree = stage_frozen(
        repo,
        ["tests"],
        tmp_path / "into",
        overlays={repo / "tests" / "dir.py" / "expected.txt": trusted},
    )
    staged = tree.snapshots["tests"] / "dir.py"
    assert staged.is_dir() and not staged.is_symlink()
    assert (staged / "expected.txt").read_text() == "base\n"
    assert (repo / "tests" / "victim" / "expected.txt").read_text() == "real\n"


def test_a_test_folder_nested_past_the_recursion_limit_is_staged(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    deep = repo / "tests"
    deep.mkdir(parents=True)
    for _ in range(1200):  # one level at a time: pathlib's own mkdir(parents=True) recurses
        deep = deep / "a"
        deep.mkdir()
    (deep / "x.txt").write_text("deep\n")
    try:
        tree = stage_frozen(repo, ["tests"], tmp_path / "into")
        assert (tree.snapshots["tests"] / "/".join(["a"] * 1200) / "x.txt").read_text() == "deep\n"
    finally:  # pytest's clean-up of old temporary folders would recurse past the limit
        remove_deep(repo / "tests")
        if (tmp_path / "into").exists():
            remove_deep(tmp_path / "into")


LISTS_AND_WRITES = """
import json, os
out = {}
for folder in ("tests", "env"):
    try:
        with open(os.path.join(folder, "made.txt"), "w") as f:
            f.write("x")
        out[folder] = "written"
    except OSError as error:
        out[folder] = f"OSError:{error.errno}"
out["listing"] = sorted(os.listdir("tests"))
print(json.dumps(out))
"""


def test_a_committed_venv_marker_does_not_unfreeze_a_test_folder(tmp_path: Path) -> None:
    # red-team pass 9: `tests/pyvenv.cfg` added by a diff made `tests/` an environment, bound as
    # the head has it: the base suite then saw the diff's added conftest.py (hooks that report
    # every failure as a pass); only an environment the job's set-up made (untracked) is bound
    repo = Repo(tmp_path / "repo")
    repo.write("tests/test_base.py", "def test_ok():\n    pass\n")
    repo.commit("base")
    repo.write("tests/pyvenv.cfg", "home = /usr/bin\n")
    repo.write("tests/conftest.py", "BAD = True\n")
    repo.commit("head")
    (repo.path / "env").mkdir()
    (repo.path / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")  # made by the set-up
    with open_sandbox(repo.path) as sandbox:
        cmd = sandbox.command(
            [sys.executable, "-c", LISTS_AND_WRITES],
            env=dict(os.environ),
            cwd=repo.path,
            removed=["tests/conftest.py", "tests/pyvenv.cfg"],
            frozen=["tests"],
        )
        done = subprocess.run(
            cmd.argv, env=cmd.env, cwd=repo.path, capture_output=True, text=True, timeout=60
        )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["listing"] == ["test_base.py"]  # frozen: the diff's files are left out
    assert got["tests"] == "OSError:30" and got["env"] == "OSError:30"  # both read-only
    assert not (repo.path / "tests" / "made.txt").exists()
