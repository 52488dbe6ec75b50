"""Is bubblewrap here, and may it build namespaces? Checked once per process, with a one-line why."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess

from lanegate.errors import SandboxError

BWRAP = "bwrap"
# every namespace, a sandbox that dies with lanegate, and no nested user namespaces for the tests
NAMESPACES = (
    "--unshare-all",
    "--unshare-user",
    "--disable-userns",
    "--die-with-parent",
    "--cap-drop",
    "ALL",
)
# What root in a CI container may do to files that it may not as their mode says (Docker's default
# capabilities of a root job: read, write and search past the mode bits, change the mode, times and
# owner of any file). A replay granted them meets what a root CI job meets; the sandbox's user
# namespace limits them to the files of the uids it maps (its own copy of the tree, its /tmp).
PRIVILEGE_CAPS = ("CAP_DAC_OVERRIDE", "CAP_FOWNER", "CAP_CHOWN", "CAP_FSETID")
_APPARMOR_HINT = (
    "on Ubuntu 23.10+ (GitHub's ubuntu-24.04) allow user namespaces for bwrap: "
    "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (the lanegate action does this); "
    "or pass --no-sandbox, which the scorer fails for agent diffs"
)


@functools.cache
def check() -> str:
    """The bubblewrap version that works here; raises `SandboxError` saying why none does."""
    path = shutil.which(BWRAP)
    if path is None:
        raise SandboxError(
            "cannot build a sandbox: bubblewrap (bwrap) is not installed",
            hint="apt-get install bubblewrap (Debian/Ubuntu), or pass --no-sandbox",
        )
    try:
        version = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=10, check=False
        ).stdout.strip()
        trial = subprocess.run(
            [path, *NAMESPACES, "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "true"],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SandboxError(f"cannot build a sandbox: {BWRAP}: {exc}", hint=_APPARMOR_HINT) from None
    if trial.returncode != 0:
        why = (trial.stderr.strip().splitlines() or [f"exit {trial.returncode}"])[-1]
        raise SandboxError(f"cannot build a sandbox: {why}", hint=_APPARMOR_HINT)
    return version or "bubblewrap"


def privilege_args() -> tuple[str, ...]:
    """bwrap's arguments that keep `PRIVILEGE_CAPS` (after `NAMESPACES`, which drops every one)."""
    return tuple(arg for cap in PRIVILEGE_CAPS for arg in ("--cap-add", cap))


@functools.cache
def privilege() -> str:
    """'' when a sandboxed command can keep root's file-permission override here; else why not.

    Only where lanegate runs as root: the sandbox keeps lanegate's uid, and a non-root uid with
    the override is a user no CI job runs as (a test that checks `os.geteuid() == 0` before it
    expects a `PermissionError` would meet an override its check says is absent)."""
    uid = os.geteuid()
    if uid != 0:
        return (
            f"lanegate runs as uid {uid}, not root: no replay can have the file-permission "
            "override a root CI job has (run lanegate as root, e.g. in a container job, to add it)"
        )
    path = shutil.which(BWRAP)
    if path is None:
        return "bubblewrap (bwrap) is not installed"
    try:
        trial = subprocess.run(
            [
                path,
                *NAMESPACES,
                *privilege_args(),
                "--ro-bind",
                "/",
                "/",
                "--proc",
                "/proc",
                "--dev",
                "/dev",
                "true",
            ],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{BWRAP} cannot keep {', '.join(PRIVILEGE_CAPS)}: {exc}"
    if trial.returncode != 0:
        why = (trial.stderr.strip().splitlines() or [f"exit {trial.returncode}"])[-1]
        return f"{BWRAP} cannot keep {', '.join(PRIVILEGE_CAPS)}: {why}"
    return ""
