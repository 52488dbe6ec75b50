"""Is bubblewrap here, and may it build namespaces? Checked once per process, with a one-line why."""

from __future__ import annotations

import functools
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
