"""A cap on how many processes one sandbox may hold: an rlimit, or a pids cgroup when running as root.

`RLIMIT_NPROC` counts every process of the real user, and the kernel does not apply it to root. So an
unprivileged lanegate (a GitHub-hosted runner) lowers it inside the sandbox to what the user already
runs plus the budget; lanegate running as root (containers, this project's CI) puts each sandbox in a
fresh pids cgroup (v1 `pids` hierarchy, or v2 with the pids controller) instead. Where neither exists
the cap is recorded as `none`: the PID namespace still ends every process with the sandbox.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
CGROUP_PREFIX = "lanegate-"  # each sandbox's pids cgroup: this prefix and a random suffix


@dataclass(frozen=True, slots=True)
class ProcessCap:
    """How the process budget is enforced: `rlimit` (value in `nproc`), `cgroup` (in `path`), `none`."""

    kind: str
    nproc: int | None = None
    path: Path | None = None
    budget: int = 0  # a cgroup cap's pids.max

    def wrap(self, argv: list[str]) -> list[str]:
        """The command, entering the cgroup first when the cap is one. A cgroup that is gone (an
        empty group between two commands is fair game for a sweep of leftovers, such as a test
        session's clean-up beside this run) is made again with its budget, never skipped."""
        if self.path is None:
            return argv
        enter = (
            '{ [ -d "$0" ] || { mkdir "$0" && echo "$1" > "$0/pids.max"; }; } '
            '&& echo $$ > "$0/cgroup.procs" && shift && exec "$@"'
        )
        return ["/bin/sh", "-c", enter, str(self.path), str(self.budget), *argv]

    def release(self) -> None:
        """Remove the cgroup (it is empty once the sandbox's PID namespace has ended)."""
        if self.path is not None:
            with contextlib.suppress(OSError):
                self.path.rmdir()


def _user_processes(uid: int) -> int:
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if entry.stat().st_uid == uid:
                    count += 1
    return count


def _pids_hierarchy() -> Path | None:
    v1 = CGROUP_ROOT / "pids"
    if (v1 / "cgroup.procs").is_file():
        return v1
    controllers = CGROUP_ROOT / "cgroup.controllers"
    with contextlib.suppress(OSError):
        if "pids" in controllers.read_text(encoding="ascii").split():
            return CGROUP_ROOT
    return None


def process_cap(budget: int) -> ProcessCap:
    """The strongest cap available to this process for `budget` more processes."""
    uid = os.geteuid()
    if uid != 0:
        return ProcessCap("rlimit", nproc=_user_processes(uid) + budget)
    hierarchy = _pids_hierarchy()
    if hierarchy is None:
        return ProcessCap("none")
    group = hierarchy / f"{CGROUP_PREFIX}{secrets.token_hex(6)}"
    try:
        group.mkdir()
        (group / "pids.max").write_text(f"{budget}\n", encoding="ascii")
    except OSError:
        with contextlib.suppress(OSError):
            group.rmdir()
        return ProcessCap("none")
    return ProcessCap("cgroup", path=group, budget=budget)
