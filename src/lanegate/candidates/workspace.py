"""The batch's trees: a store holding only the base's history, and one clone of it per candidate.

The source repository holds every candidate's commits; a test of one candidate that could read it
would see the others' trees. So nothing runs in it: the store gets the base commit's history only
(the trusted part every candidate shares, by git's alternates, never copied), and each candidate's
clone gets the store plus that candidate's own commits. The source repository, the store's
folder and the folder of every candidate's tree are hidden from a candidate's sandbox (`hidden_for`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lanegate import git
from lanegate.errors import GitError

STORE = "base-store.git"
BASE_TREE = "base"
TREES = "trees"


@dataclass(frozen=True, slots=True)
class Workspace:
    """The batch's working folder (outside the source repository) and the source repository."""

    root: Path
    source: Path

    @property
    def store(self) -> Path:
        """The bare repository with the base's history only."""
        return self.root / STORE

    def tree(self, name: str) -> Path:
        """The clone a candidate runs in."""
        return self.root / TREES / name


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def open_workspace(source: Path, root: Path, base: str) -> Workspace:
    """Make the store in `root` (new or empty, outside `source`) from the base commit's history."""
    source, root = source.resolve(), root.resolve()
    for checkout_dir in (source, *source_checkouts(source)):
        if _inside(root, checkout_dir) or _inside(checkout_dir, root):
            raise GitError(
                f"{root}: the batch's working folder must lie outside the repository's "
                f"checkout {checkout_dir} (every one is hidden from the candidates)",
                hint="set TMPDIR to a folder outside the repository and its worktrees",
            )
    root.mkdir(parents=True, exist_ok=True)
    space = Workspace(root, source)
    git.run_git(root, "init", "-q", "--bare", str(space.store))
    git.run_git(space.store, "fetch", "-q", "--no-tags", str(source), f"{base}:refs/heads/base")
    (root / TREES).mkdir()
    return space


def checkout(space: Workspace, name: str, commit: str) -> Path:
    """A clone of the store at `commit` (fetched from the source: the candidate's own objects
    only, the base's come from the store), checked out detached; returns its path."""
    tree = space.tree(name)
    git.run_git(space.root, "clone", "-q", "--shared", "--no-checkout", str(space.store), str(tree))
    if not git.run_git(tree, "cat-file", "-t", commit, check=False).strip():
        git.run_git(
            tree, "fetch", "-q", "--no-tags", str(space.source), f"{commit}:refs/heads/head"
        )
    git.run_git(tree, "-c", "advice.detachedHead=false", "checkout", "-q", "--detach", commit)
    return tree


def source_checkouts(source: Path) -> tuple[Path, ...]:
    """Every place the source repository's files and commits can be read from, wherever it lies:
    its common git folder and each of its worktrees (the main one and every linked one: a
    candidate's branch checked out by an agent in a folder of its own is a sibling's tree)."""
    common = git.run_git(source, "rev-parse", "--path-format=absolute", "--git-common-dir")
    found = [Path(common.decode("utf-8", "surrogateescape").strip())]
    listing = git.run_git(source, "worktree", "list", "--porcelain", "-z")
    found += [
        Path(field[len(b"worktree ") :].decode("utf-8", "surrogateescape"))
        for field in listing.split(b"\0")
        if field.startswith(b"worktree ")
    ]
    return tuple(dict.fromkeys(p.resolve() for p in found if p.is_dir()))


def hidden_for(space: Workspace, outputs: Path) -> tuple[Path, ...]:
    """What a candidate's tests must not see, by what it is, wherever it lies: the source
    repository with its git folder and every worktree of it (every candidate's commits and any
    candidate checked out by hand, inside /tmp or not), the batch's outputs (every candidate's
    ledgers), the folder of every candidate's tree (their own is mounted inside the mask, the
    others' names are gone with it), and every other folder of the working folder but the store
    (the base's history, which every candidate's clone reads its base objects from): the base's
    checkout and map, the candidates' outcomes and their temporary folders (their staging)."""
    extra = [p for p in space.root.iterdir() if p.name not in (TREES, STORE)]
    return (
        space.source,
        *source_checkouts(space.source),
        outputs.resolve(),
        space.root / TREES,
        *extra,
    )
