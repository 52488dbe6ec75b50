"""The first process inside the sandbox: copy the tree, fix HOME, lower the limits, exec the command.

It is started as `python -I -S inner.py SPEC -- ARGV...` (SPEC: the `marshal` bytes of a dict in hex,
or `@PATH` of a file holding them) (isolated, no site: it imports only built-in modules, so nothing in
the repository or the environment can shadow it, and it starts in about 8 ms, where `json` and
`shutil` alone cost as much again). It copies the read-only view of the work tree into the private
tmpfs mounted at the repository's own path, lowers every resource limit (soft and hard, so the
command cannot raise them again) and replaces itself with the command. It never returns: a failure
before the exec exits `SETUP_FAILED_EXIT` with one line on stderr.
"""

from __future__ import annotations

# `signal` is this C module wrapped in enums, whose import costs 4-5 ms of start (no stubs)
import _signal  # type: ignore[import-not-found]
import marshal
import os
import resource
import stat
import sys

TYPE_CHECKING = False  # `typing` costs a few ms of start; mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

SETUP_FAILED_EXIT = 125
NOT_STARTED_EXIT = 127  # as a shell says of a command it cannot run
MARKER = "lanegate-sandbox: "

_LIMITS = {
    "memory_bytes": resource.RLIMIT_AS,
    "file_bytes": resource.RLIMIT_FSIZE,
    "open_files": resource.RLIMIT_NOFILE,
    "processes": resource.RLIMIT_NPROC,
    "core_bytes": resource.RLIMIT_CORE,
}


_BYTE_CODE = (".pyc", ".pyo")


def _copy_tree(
    source: str,
    target: str,
    skip: set[str],
    drop: frozenset[str] = frozenset(),
    fill: frozenset[str] = frozenset(),
) -> None:
    """Copy `source` into the (empty, mounted) `target`: links kept as links unless they leave the
    tree, `skip` (top-level names) and `drop` (relative paths) left out, and whatever the sandbox
    already mounted there (`.git`, a virtual environment, a restored base file, a frozen folder)
    left as mounted, except `fill` (relative paths: the empty folders pinned above a frozen one).
    Byte code is never copied (`__pycache__` folders, `*.pyc`, `*.pyo`): Python would run a
    committed `oracles.pyc` (an unchecked-hash one reads no source) in place of the trusted
    `oracles.py` mounted beside it; each sandbox compiles its own from the sources it sees.
    Folder modes are copied last, so a read-only folder is filled before it becomes read-only."""
    made: list[tuple[str, str]] = []
    links: list[str] = []
    for folder, dirs, files in _walk(source):
        rel = os.path.relpath(folder, source)
        here = target if rel == "." else os.path.join(target, rel)
        if rel == ".":
            dirs[:] = [d for d in dirs if d not in skip]
            files = [f for f in files if f not in skip]
        if drop:
            prefix = "" if rel == "." else rel.replace(os.sep, "/") + "/"
            dirs[:] = [d for d in dirs if prefix + d not in drop]
            files = [f for f in files if prefix + f not in drop]
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        files = [f for f in files if not f.endswith(_BYTE_CODE)]
        keep = []
        for name in dirs:
            src, dest = os.path.join(folder, name), os.path.join(here, name)
            if os.path.islink(src):
                if not os.path.lexists(dest):
                    os.symlink(os.readlink(src), dest)
                    links.append(dest)
            elif os.path.ismount(dest) and os.path.relpath(dest, target) not in fill:
                continue  # mounted read-only by the sandbox: not ours to fill
            else:
                if not os.path.isdir(dest):
                    os.mkdir(dest)  # its parent was made one level up: no recursion on depth
                keep.append(name)
        dirs[:] = keep
        for name in files:
            src, dest = os.path.join(folder, name), os.path.join(here, name)
            if os.path.lexists(dest):
                continue  # a file the sandbox mounted there
            if os.path.islink(src):
                os.symlink(os.readlink(src), dest)
                links.append(dest)
            elif os.path.isfile(src):
                _copy_file(src, dest)
            # sockets, FIFOs and devices are not part of a test tree: left out
        made.append((folder, here))
    _drop_links_out(links, target)
    for folder, here in reversed(made):
        _copy_stat(os.stat(folder), here)


def _walk(top: str) -> Iterator[tuple[str, list[str], list[str]]]:
    """`os.walk(top)` from an explicit stack (3.11's recurses once per level, and a tree a diff
    nests past the recursion limit is the diff's to choose); `lanegate.treewalk.walk` is the same
    walk for lanegate's own process, which this process cannot import (no site, no package)."""
    stack = [top]
    while stack:
        folder = stack.pop()
        with os.scandir(folder) as listing:
            entries = list(listing)
        dirs = [e.name for e in entries if e.is_dir()]
        files = [e.name for e in entries if not e.is_dir()]
        yield folder, dirs, files
        stack.extend(
            os.path.join(folder, name)
            for name in reversed(dirs)
            if not os.path.islink(os.path.join(folder, name))
        )


def _copy_file(source: str, target: str) -> None:
    """Copy one regular file's bytes, mode and times (what `shutil.copy2` keeps of it on a tmpfs)."""
    given = os.open(source, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        made = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            while os.sendfile(made, given, None, 1 << 30):
                pass
            _copy_stat(os.fstat(given), made)
        finally:
            os.close(made)
    finally:
        os.close(given)


def _copy_stat(info: os.stat_result, target: int | str) -> None:
    """Give `target` (a folder's path, or an open file) the permission bits and times of `info`."""
    os.chmod(target, stat.S_IMODE(info.st_mode))
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))


def _drop_links_out(links: list[str], target: str) -> None:
    """Remove the copied links that resolve outside the tree (`/`, `/etc/passwd`, `../victim`).

    What they point at is not part of the repository, so no evidence may depend on it, and a
    collector following `tests/root -> /` would walk the whole machine until the wall clock. Each
    link is resolved as the kernel resolves it, through the other links of the copy, so a chain or a
    `..` after a link cannot lead out either; links are judged before any is removed."""
    root = os.path.realpath(target)
    outside = [link for link in links if os.path.commonpath([root, os.path.realpath(link)]) != root]
    for link in outside:
        os.unlink(link)


def _lower_limits(limits: dict[str, int]) -> None:
    for name, value in limits.items():
        which = _LIMITS[name]
        soft, hard = resource.getrlimit(which)
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(which, (value, value))


def main(argv: list[str]) -> None:
    command = argv[2:]
    try:
        spec = _spec(argv[0])
        _copy_tree(
            spec["source"],
            spec["target"],
            set(spec["skip"]),
            frozenset(spec.get("drop", ())),
            frozenset(spec.get("fill", ())),
        )
        os.makedirs(spec["home"], exist_ok=True)
        _lower_limits(spec["limits"])
        os.chdir(spec["cwd"])
    except (OSError, ValueError, KeyError, TypeError, EOFError, RecursionError) as exc:
        _die(SETUP_FAILED_EXIT, f"setup failed: {type(exc).__name__}: {exc}")
    # CPython ignores SIGPIPE and SIGXFSZ, and an ignored signal stays ignored across exec: give the
    # command the defaults any other process starts with (as subprocess's restore_signals does)
    for name in ("SIGPIPE", "SIGXFSZ", "SIGXFZ"):
        if hasattr(_signal, name):
            _signal.signal(getattr(_signal, name), _signal.SIG_DFL)
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        _die(NOT_STARTED_EXIT, f"cannot start {command[0]!r}: {exc.strerror or exc}")


def _spec(given: str) -> dict[str, Any]:
    """The setup spec the sandbox passed: inline hex, or `@PATH` of a file bound read-only (a spec
    too long for one argument)."""
    if given.startswith("@"):
        with open(given[1:], "rb") as data:
            spec = marshal.loads(data.read())
    else:
        spec = marshal.loads(bytes.fromhex(given))
    if not isinstance(spec, dict):
        raise TypeError(f"the spec is a {type(spec).__name__}, not a dict")
    return spec


def _die(code: int, message: str) -> None:
    sys.stderr.write(f"{MARKER}{message}\n")
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    main(sys.argv[1:])
