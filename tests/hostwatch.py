"""What the test session must leave as it found it outside its temporary folders (issue 47: on a
machine where lanegate's suite ran as root, the host's /dev/null was found replaced by a regular
file, and git failed on every call that reads it as a config file).

`snapshot` records the device nodes every process relies on (type and device number) and the files
outside the temporary folders that git, pip and the suite read or could write by mistake (the
user's and the system's git and pip configuration, the checkout's tracked files as git reports
them); `changes` names each difference on one line.
"""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
from collections.abc import Iterable
from pathlib import Path

DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty")
_HOME = Path(os.path.expanduser("~"))
FILES = (
    "/etc/gitconfig",
    str(_HOME / ".gitconfig"),
    str(_HOME / ".config" / "git" / "config"),
    "/etc/pip.conf",
    str(_HOME / ".config" / "pip" / "pip.conf"),
    str(_HOME / ".pip" / "pip.conf"),
)
CHECKOUT = Path(__file__).resolve().parent.parent
# more files to watch (os.pathsep-separated): how the suite tests its own check
EXTRA_VAR = "LANEGATE_TEST_HOSTWATCH_FILES"

Snapshot = dict[str, str]


def _node(path: str) -> str:
    try:
        info = os.lstat(path)
    except OSError as exc:
        return f"absent ({exc.strerror})"
    kind = stat.S_IFMT(info.st_mode)
    if stat.S_ISCHR(kind) or stat.S_ISBLK(kind):
        return f"device {kind:o} {os.major(info.st_rdev)}:{os.minor(info.st_rdev)}"
    return f"not a device (mode {kind:o}, {info.st_size} bytes)"


def _file(path: str) -> str:
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode):
            return f"mode {stat.S_IFMT(info.st_mode):o}"
        with open(path, "rb") as handle:
            digest = hashlib.sha256(handle.read()).hexdigest()[:16]
        return f"file {stat.S_IMODE(info.st_mode):o} sha256:{digest}"
    except OSError as exc:
        return f"absent ({exc.strerror})"


def _checkout() -> str:
    """The checkout's tracked files as git sees them (a digest of `git status` and HEAD)."""
    done = subprocess.run(
        ["git", "-C", str(CHECKOUT), "status", "--porcelain=v1", "-z", "--untracked-files=no"],
        capture_output=True,
        check=False,
    )
    head = subprocess.run(
        ["git", "-C", str(CHECKOUT), "rev-parse", "HEAD"], capture_output=True, check=False
    )
    return "git " + hashlib.sha256(done.stdout + head.stdout).hexdigest()[:16]


def snapshot(
    devices: Iterable[str] = DEVICES, files: Iterable[str] = FILES, checkout: bool = True
) -> Snapshot:
    """The state of the watched device nodes and files (and the checkout's tracked files)."""
    out = {f"device {path}": _node(path) for path in devices}
    extra = [p for p in os.environ.get(EXTRA_VAR, "").split(os.pathsep) if p]
    out.update({f"file {path}": _file(path) for path in (*files, *extra)})
    if checkout:
        out[f"checkout {CHECKOUT}"] = _checkout()
    return out


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """One line per watched path whose state differs."""
    return [
        f"{name}: was {before.get(name)}, is {after.get(name)}"
        for name in sorted(set(before) | set(after))
        if before.get(name) != after.get(name)
    ]
