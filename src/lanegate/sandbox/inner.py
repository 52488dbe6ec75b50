"""The first process inside the sandbox: copy the tree, fix HOME, lower the limits, exec the command.

It is started as `python -I -S inner.py SPEC -- ARGV...` (SPEC: JSON, or `@PATH` of a JSON file) (isolated, no site: it imports only the
standard library, so nothing in the repository or the environment can shadow it). It copies the
read-only view of the work tree into the private tmpfs mounted at the repository's own path, lowers
every resource limit (soft and hard, so the command cannot raise them again) and replaces itself with
the command. It never returns: a failure before the exec exits `SETUP_FAILED_EXIT` with one line on
stderr.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import sys

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
    source: str, target: str, skip: set[str], drop: frozenset[str] = frozenset()
) -> None:
    """Copy `source` into the (empty, mounted) `target`: links kept as links unless they leave the
    tree, `skip` (top-level names) and `drop` (relative paths) left out, and whatever the sandbox
    already mounted there (`.git`, a virtual environment, a restored base file) left as mounted.
    Byte code is never copied (`__pycache__` folders, `*.pyc`, `*.pyo`): Python would run a
    committed `oracles.pyc` (an unchecked-hash one reads no source) in place of the trusted
    `oracles.py` mounted beside it; each sandbox compiles its own from the sources it sees.
    Folder modes are copied last, so a read-only folder is filled before it becomes read-only."""
    made: list[tuple[str, str]] = []
    links: list[str] = []
    for folder, dirs, files in os.walk(source):
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
            elif os.path.ismount(dest):
                continue  # mounted read-only by the sandbox: not ours to fill
            else:
                os.makedirs(dest, exist_ok=True)
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
                shutil.copy2(src, dest)
            # sockets, FIFOs and devices are not part of a test tree: left out
        made.append((folder, here))
    _drop_links_out(links, target)
    for folder, here in reversed(made):
        shutil.copystat(folder, here)


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
        if argv[0].startswith("@"):  # a spec too long for one argument: a file bound read-only
            with open(argv[0][1:], encoding="utf-8") as text:
                spec = json.load(text)
        else:
            spec = json.loads(argv[0])
        _copy_tree(
            spec["source"], spec["target"], set(spec["skip"]), frozenset(spec.get("drop", ()))
        )
        os.makedirs(spec["home"], exist_ok=True)
        _lower_limits(spec["limits"])
        os.chdir(spec["cwd"])
    except (OSError, ValueError, KeyError, shutil.Error) as exc:
        _die(SETUP_FAILED_EXIT, f"setup failed: {type(exc).__name__}: {exc}")
    # CPython ignores SIGPIPE and SIGXFSZ, and an ignored signal stays ignored across exec: give the
    # command the defaults any other process starts with (as subprocess's restore_signals does)
    for name in ("SIGPIPE", "SIGXFSZ", "SIGXFZ"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        _die(NOT_STARTED_EXIT, f"cannot start {command[0]!r}: {exc.strerror or exc}")


def _die(code: int, message: str) -> None:
    sys.stderr.write(f"{MARKER}{message}\n")
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    main(sys.argv[1:])
