"""Running git: the only module that spawns `git`. Typed errors, no shell, bytes where paths are bytes."""

from __future__ import annotations

import os
import re
import subprocess
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

from lanegate.errors import AmbiguousRefError, GitError

GIT_TIMEOUT_SECONDS = 120
# a full object id names immutable bytes: what one names (its bytes at a path, its commit, a merge
# base with another) is asked of git once per process
_FULL_ID = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
MEMO_BYTES = 64 * 1024 * 1024  # the memo's size cap; past it, answers are no longer kept
_memo: dict[tuple[str, str, str], bytes | None] = {}
_memo_size = [0]
_memo_lock = threading.Lock()
# a found object's line in `git cat-file --batch` output: id, type, size
_BATCH_HEADER = re.compile(rb"[0-9a-f]{40}(?:[0-9a-f]{24})? ([a-z]+) ([0-9]+)")


def run_git(repo: Path, *args: str, check: bool = True, input_bytes: bytes | None = None) -> bytes:
    """Run `git -C repo args...` and return stdout; a failure raises `GitError` with git's message."""
    done = _run(repo, args, input_bytes)
    if check and done.returncode != 0:
        raise GitError(f"{repo}: git {' '.join(args[:3])}: {said(done)}")
    return done.stdout


def _run(
    repo: Path, args: Sequence[str], input_bytes: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    command = ["git", "-C", str(repo), "-c", "core.quotepath=off", *args]
    try:
        return subprocess.run(
            command,
            input=input_bytes,
            capture_output=True,
            timeout=GIT_TIMEOUT_SECONDS,
            check=False,
        )
    except FileNotFoundError:
        raise GitError("git is not installed or not on PATH") from None
    except subprocess.TimeoutExpired:
        raise GitError(
            f"git {' '.join(args[:2])} did not finish in {GIT_TIMEOUT_SECONDS}s"
        ) from None


def said(done: subprocess.CompletedProcess[bytes]) -> str:
    """What a git run said of its failure: the last line of its stderr, else its exit status."""
    message = done.stderr.decode("utf-8", "replace").strip().splitlines()
    return message[-1].strip() if message else f"exit {done.returncode}, no message"


def repo_root(path: Path) -> Path:
    """The top of the work tree containing `path`; outside one, a `GitError` saying so."""
    if not path.is_dir():
        raise GitError(f"{path}: no such directory")
    done = _run(path, ("rev-parse", "--show-toplevel"))
    top = done.stdout.strip()
    if done.returncode == 0 and top:
        return Path(top.decode("utf-8"))
    if b"not a git repository" in done.stderr.lower():
        raise GitError(
            f"{path.resolve()}: not inside a git repository",
            hint="run lanegate in a clone (git init; git commit) or pass --repo PATH",
        )
    # any other failure (a lock, no memory, a bad config, a killed git) is git's to name
    raise GitError(f"{path.resolve()}: git rev-parse --show-toplevel failed: {said(done)}")


# the characters that end a ref name in a revision expression (`main~2`, `v1^{commit}`,
# `main@{1}`, `HEAD:path`): none may stand in a ref name (git-check-ref-format(1))
_REV_SUFFIX = re.compile(r"[~^:]|@\{")
_HEX_PREFIX = re.compile(r"[0-9a-fA-F]{4,63}")
_PSEUDO_REF = re.compile(r"[A-Z][A-Z0-9_]*")  # HEAD, FETCH_HEAD, ORIG_HEAD: files in the git dir


def ref_candidates(name: str) -> tuple[str, ...]:
    """The full ref names git's shorthand lookup tries for `name`, in its order (gitrevisions(7)):
    `<name>` itself (a full `refs/...` name, or a pseudo ref in the git dir such as HEAD),
    refs/<name>, refs/tags/<name>, refs/heads/<name>, refs/remotes/<name>, refs/remotes/<name>/HEAD."""
    rules = (
        name,
        f"refs/{name}",
        f"refs/tags/{name}",
        f"refs/heads/{name}",
        f"refs/remotes/{name}",
        f"refs/remotes/{name}/HEAD",
    )
    return tuple(dict.fromkeys(rules))


def unambiguous_name(repo: Path, ref: str) -> str:
    """`ref` with its ref-name part written so that it names exactly one thing: the one full ref
    name (`refs/remotes/origin/main`) that git's shorthand lookup finds for it, a pseudo ref (HEAD),
    or the commit id (prefix) as given; a name that two of git's lookup rules answer (an agent's
    branch `refs/heads/origin/main` beside the remote's `refs/remotes/origin/main`), or a hex name
    that is both a ref and a commit id prefix, is an `AmbiguousRefError` naming every candidate.

    git itself takes the first rule's answer with a warning on stderr: a pushed branch could then
    stand in for the trusted base. The suffix (`~1`, `^{tree}`, `@{1}`) is kept as given."""
    if not ref or ref.startswith("-") or "\0" in ref:
        raise GitError(f"invalid git ref {ref!r}")
    cut = _REV_SUFFIX.search(ref)
    name, suffix = (ref[: cut.start()], ref[cut.start() :]) if cut else (ref, "")
    if name in ("", "@"):  # `@` is HEAD; `@{-1}`, `:/text` are not names lanegate trusts
        if name == "@" or ref == "@":
            name = "HEAD"
        else:
            raise GitError(
                f"git ref {ref!r} names no ref or commit",
                hint="pass a branch (full name, e.g. refs/remotes/origin/main) or a commit id",
            )
    if is_full_id(name):
        return name + suffix  # a full object id is that object, whatever refs are called
    found = _existing_refs(repo, name)
    if name.startswith("refs/") and name in found:
        # a full ref name is git's first rule, which wins over the rest: the fix this error
        # gives must work even when a pushed `refs/heads/refs/remotes/origin/main` exists
        return name + suffix
    if _HEX_PREFIX.fullmatch(name) and found:
        objects = run_git(repo, "rev-parse", f"--disambiguate={name.lower()}", check=False)
        found += [f"commit id {line.decode()[:12]}..." for line in objects.split()[:3]]
    if len(found) > 1:
        raise AmbiguousRefError(
            f"git ref {name!r} is ambiguous: it names {', '.join(found)}",
            hint="pass the full ref name of the one you mean (as named here, e.g. "
            "refs/remotes/origin/main) or a full commit id, and delete the ref that "
            "should not be there",
        )
    return (found[0] if found and not found[0].startswith("commit id") else name) + suffix


def _existing_refs(repo: Path, name: str) -> list[str]:
    """Which of `ref_candidates(name)` exist in `repo` (one `git for-each-ref`, plus a look in the
    git dir for a pseudo ref such as HEAD)."""
    candidates = ref_candidates(name)
    patterns = [c for c in candidates if c.startswith("refs/")]
    listed = set()
    if patterns:
        out = run_git(repo, "for-each-ref", "--format=%(refname)", *patterns)
        listed = {line.decode("utf-8", "surrogateescape") for line in out.splitlines()}
    found = [c for c in candidates if c in listed]
    if not name.startswith("refs/") and _PSEUDO_REF.fullmatch(name) and _pseudo_ref(repo, name):
        found.insert(0, name)
    return found


def _pseudo_ref(repo: Path, name: str) -> bool:
    """Whether the git dir holds the pseudo ref `name` (HEAD always: a repository has one)."""
    if name == "HEAD":
        return True
    where = run_git(repo, "rev-parse", "--git-path", name, check=False).decode().strip()
    return bool(where) and (repo / where).is_file()


def resolve_commit(repo: Path, ref: str) -> str:
    """The full commit id of `ref`, which must name exactly one thing (`unambiguous_name`); a
    missing ref explains shallow clones. Every ref a user or a workflow gives lanegate (the base,
    the head, a map's or a lockfile's) is resolved here."""
    if not ref or ref.startswith("-"):
        raise GitError(f"invalid git ref {ref!r}")
    key = (str(repo), "^{commit}", ref)
    if is_full_id(ref) and key in _memo:  # a full id's commit never changes
        return (_memo[key] or b"").decode()
    exact = unambiguous_name(repo, ref)
    done = _run(
        repo, ("rev-parse", "--verify", "--quiet", "--end-of-options", f"{exact}^{{commit}}")
    )
    sha = done.stdout.decode().strip()
    if not sha and done.stderr.strip():  # `--quiet` leaves a missing ref unsaid: this is another
        raise GitError(f"{repo}: git rev-parse {ref!r} failed: {said(done)}")
    if not sha:
        shallow = (
            run_git(repo, "rev-parse", "--is-shallow-repository", check=False).decode().strip()
        )
        empty = not run_git(repo, "rev-list", "-n", "1", "--all", check=False).strip()
        if empty:
            raise GitError(
                f"{repo}: the repository has no commit yet",
                hint="commit the code the pull request starts from on the default branch first",
            )
        hint = (
            "this is a shallow clone: fetch the base (actions/checkout with fetch-depth: 0)"
            if shallow == "true"
            else "fetch the base branch first (git fetch origin <base>)"
        )
        raise GitError(f"{repo}: base ref {ref!r} is not a commit in this repository", hint=hint)
    if is_full_id(ref):
        _remember(key, sha.encode())
    if is_full_id(sha):  # what a ref named is a commit under its own full id too
        _remember((str(repo), "^{commit}", sha), sha.encode())
    return sha


def merge_base(repo: Path, base: str, head: str) -> str:
    """The merge base of `base...head`, as git's three-dot diff uses it."""
    base_sha = resolve_commit(repo, base)
    head_sha = resolve_commit(repo, head)
    key = (str(repo), "merge-base", f"{base_sha} {head_sha}")
    if key in _memo:  # two commits' merge base never changes
        return (_memo[key] or b"").decode()
    done = _run(repo, ("merge-base", base_sha, head_sha))
    out = done.stdout.decode().strip()
    if not out and done.stderr.strip():  # no merge base exits 1 unsaid: this is another failure
        raise GitError(f"{repo}: git merge-base failed: {said(done)}")
    if not out:
        raise GitError(
            f"{repo}: {base!r} and {head!r} share no history",
            hint="a shallow clone may cut the merge base: fetch with fetch-depth: 0",
        )
    _remember(key, out.encode())
    return out


def show_file(repo: Path, commit: str, path: str) -> bytes | None:
    """The bytes of `path` at `commit`, or None when the path does not exist there.

    One `git cat-file --batch` process answers type and bytes together; a name with a line break
    (which the batch protocol cannot carry) asks for them in two calls. For a full commit id the
    answer is kept (up to `MEMO_BYTES` in all): the lane asks for the same files at the same
    commits from several of its steps, each answer a git process."""
    key = (str(repo), commit, path)
    if not is_full_id(commit):
        return _show_file(repo, commit, path)
    with _memo_lock:
        if key in _memo:
            return _memo[key]
    data = _show_file(repo, commit, path)
    _remember(key, data)
    return data


def prefetch_files(repo: Path, wanted: Iterable[tuple[str, str]]) -> None:
    """Ask git once for the type and size of every `(commit, path)` of `wanted` at a full commit id
    that `show_file` has not answered yet, and once for the bytes of those that are files, and keep
    the files and the missing paths for `show_file`.

    A step that reads several files in a row (pytest's configuration candidates, a file at base and
    at head, the test files at both) pays two git processes instead of one or two each. The bytes
    asked for fit in what the memo has left, so a step never holds more than the memo's cap at once
    (a diff's thousand big files are not read in one go); the rest, a name the batch protocol cannot
    carry, and anything but a blob or `missing` are left to `show_file`, which asks again and says
    what it found."""
    names: list[tuple[str, str]] = []
    for commit, path in wanted:
        key = (str(repo), commit, path)
        if is_full_id(commit) and _batchable(commit, path) and key not in _memo:
            names.append((commit, path))
    names = list(dict.fromkeys(names))
    if len(names) < 2:
        return  # one file is asked by `show_file` itself
    left = MEMO_BYTES - _memo_size[0]
    files: list[tuple[str, str, int]] = []
    for (commit, path), found in zip(names, _batch(repo, names, contents=False), strict=False):
        if found is None:
            _remember((str(repo), commit, path), None)
        elif found[0] == b"blob" and found[1] <= left:
            files.append((commit, path, found[1]))
            left -= found[1]
    if len(files) < 2:
        return
    asked = [(commit, path) for commit, path, _ in files]
    for (commit, path, size), found in zip(files, _batch(repo, asked, contents=True), strict=False):
        if found is not None and found[0] == b"blob" and len(found[2]) == size:
            _remember((str(repo), commit, path), found[2])


def _batchable(commit: str, path: str) -> bool:
    """Whether `commit:path` fits on one line of `git cat-file --batch` input."""
    return "\n" not in commit + path and "\r" not in commit + path


def _batch(
    repo: Path, names: list[tuple[str, str]], *, contents: bool
) -> list[tuple[bytes, int, bytes] | None]:
    """One `git cat-file --batch` (`--batch-check` without `contents`) for `names`: per name, in
    order, (type, size, bytes) or None for `missing`; the list ends early at an answer this reader
    does not know (nothing after it is trusted). Bytes cut short are a `GitError` naming the
    file."""
    request = b"".join(os.fsencode(f"{c}:{p}") + b"\n" for c, p in names)
    mode = "--batch" if contents else "--batch-check"
    out = run_git(repo, "cat-file", mode, input_bytes=request)
    answers: list[tuple[bytes, int, bytes] | None] = []
    at = 0
    for _ in names:
        end = out.find(b"\n", at)
        if end < 0:
            break
        header = out[at:end]
        if header.endswith(b" missing"):
            answers.append(None)
            at = end + 1
            continue
        found = _BATCH_HEADER.fullmatch(header)
        if found is None:
            break
        kind, size = found.group(1), int(found.group(2))
        if not contents:
            answers.append((kind, size, b""))
            at = end + 1
            continue
        body = out[end + 1 : end + 1 + size]
        if len(body) != size or out[end + 1 + size : end + 2 + size] != b"\n":
            commit, path = names[len(answers)]
            raise GitError(
                f"{path} at {commit[:12]}: git cat-file gave {len(body)} of {size} bytes"
            )
        answers.append((kind, size, body))
        at = end + 2 + size
    return answers


def file_names(repo: Path, commit: str) -> bytes:
    """`git ls-tree -r -z --name-only commit`: every file path of the commit, NUL-separated (kept
    for a full commit id: several steps of a lane list the merge base)."""
    return _kept(repo, "ls-tree-names", commit, ("ls-tree", "-r", "-z", "--name-only", commit))


def zero_context_diff(repo: Path, old: str, new: str, path: str) -> bytes:
    """`git diff -U0` of one path between two commits, hunk headers as git prints them (kept for
    two full commit ids)."""
    args = ("diff", "--no-ext-diff", "--no-textconv", "-U0", "--no-color", old, new, "--", path)
    return _kept(repo, "diff-U0", f"{old} {new} {path}", args, old, new)


def _kept(repo: Path, kind: str, name: str, args: tuple[str, ...], *commits: str) -> bytes:
    """`run_git(repo, *args)`, answered from the memo when every commit it names (`commits`, or
    `name` itself) is a full id: the output is then a function of immutable objects."""
    if not all(is_full_id(c) for c in (commits or (name,))):
        return run_git(repo, *args)
    key = (str(repo), kind, name)
    with _memo_lock:
        if key in _memo:
            return _memo[key] or b""
    out = run_git(repo, *args)
    _remember(key, out)
    return out


def _remember(key: tuple[str, str, str], data: bytes | None) -> None:
    """Keep one answer about immutable objects, while the memo is under `MEMO_BYTES`."""
    with _memo_lock:
        size = 0 if data is None else len(data)
        if _memo_size[0] + size <= MEMO_BYTES:
            _memo[key] = data
            _memo_size[0] += size


SYMLINK_MODE = b"120000"


def tree_modes(repo: Path, commit: str, paths: Sequence[str]) -> dict[str, bytes]:
    """The git mode (`100644`, `120000` for a link, ...) of each of `paths` that `commit` has."""
    if not paths:
        return {}
    listing = run_git(repo, "ls-tree", "-z", commit, "--", *paths)
    out = {}
    for entry in listing.split(b"\0"):
        meta, _, name = entry.partition(b"\t")
        if meta:
            out[name.decode("utf-8", "surrogateescape")] = meta.split()[0]
    return out


def is_full_id(commit: str) -> bool:
    """True for a full (SHA-1 or SHA-256) object id: a name of immutable content."""
    return _FULL_ID.fullmatch(commit) is not None


def _show_file(repo: Path, commit: str, path: str) -> bytes | None:
    if not _batchable(commit, path):
        return _show_file_by_type(repo, commit, path)
    answers = _batch(repo, [(commit, path)], contents=True)
    if not answers or answers[0] is None:
        return None  # `<name> missing` (or ambiguous): no such object there
    kind, _, data = answers[0]
    if kind != b"blob":
        raise GitError(f"{path} at {commit[:12]} is a {kind.decode('ascii')}, not a file")
    return data


def _show_file_by_type(repo: Path, commit: str, path: str) -> bytes | None:
    kind = run_git(repo, "cat-file", "-t", f"{commit}:{path}", check=False).decode().strip()
    if kind == "":
        return None
    if kind != "blob":
        raise GitError(f"{path} at {commit[:12]} is a {kind}, not a file")
    return run_git(repo, "cat-file", "blob", f"{commit}:{path}")


def uncommitted(repo: Path) -> list[str]:
    """The tracked paths whose work-tree or index state differs from HEAD (modified, staged, added,
    deleted, renamed: the new name), in git's order."""
    fields = run_git(repo, "status", "--porcelain=v1", "-z", "--untracked-files=no").split(b"\0")
    paths: list[str] = []
    at = 0
    while at < len(fields):
        entry = fields[at]
        at += 1
        if len(entry) < 4:
            continue
        paths.append(entry[3:].decode("utf-8", "backslashreplace"))
        if entry[:1] in (b"R", b"C") or entry[1:2] in (b"R", b"C"):
            at += 1  # the entry's source path follows it
    return paths


def is_dirty(repo: Path) -> bool:
    """True when the work tree has uncommitted changes to tracked files."""
    return bool(uncommitted(repo))
