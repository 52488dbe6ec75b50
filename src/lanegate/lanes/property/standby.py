"""A lane test process started before its arguments are known: its own sandbox, pytest imported.

The property lane's two selected runs (the head's tests, the base's tests at head) each pay for a
sandbox, an interpreter and pytest's import before they collect anything: about a third of what a
small selection costs. A `Standby` starts that process as soon as the sandbox's tree is settled
(`boot.py --standby`), so the start-up overlaps the lane's planning; `run_baseline` then sends the
pytest arguments and waits for the record exactly as for a process it started itself. Nothing is
shared: each standby is one process in a sandbox of its own (own PID namespace, own copy of the
tree, own scratch folder), serving exactly one run; its environment, mounts and overlays are fixed
when it starts, and a standby that is not used is killed with its process group.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from lanegate import treewalk
from lanegate.errors import RunnerError
from lanegate.lanes.property.mutate_run import PLUGIN, child_env
from lanegate.sandbox import Sandbox, sandbox_python
from lanegate.sandbox.boot import STANDBY

# what a lane pytest child imports first in any case: pytest (as `-m pytest` does), then the plugin
# pytest loads by `-p` (it holds no assert and says PYTEST_DONT_REWRITE: pytest leaves it as it is)
PRELOAD = ("pytest", PLUGIN)


def encode_arguments(args: Sequence[str]) -> bytes:
    """The message a standby reads on fd 0: each argument NUL-ended, then one newline."""
    return b"".join(os.fsencode(a) + b"\0" for a in args) + b"\n"


def new_scratch() -> tuple[Path, Path]:
    """A lane test process's private folder (its record, log and keep list), and the Hypothesis
    storage folder inside it."""
    scratch = Path(tempfile.mkdtemp(prefix="lanegate-baseline-"))
    storage = scratch / "hypothesis"
    storage.mkdir()
    return scratch, storage


class Standby:
    """One sandboxed `python -m pytest` waiting for its arguments (see the module docstring)."""

    def __init__(
        self,
        repo: Path,
        sandbox: Sandbox,
        *,
        overlays: Mapping[Path, Path] | None = None,
        removed: Sequence[str] = (),
        frozen: Sequence[str] = (),
    ) -> None:
        self.repo = repo
        # held for the process's life: a sandbox nobody holds is released (its pids cgroup
        # removed), and a process that has not entered the cgroup yet could no longer
        self.sandbox = sandbox
        self.overlays = dict(overlays or {})
        self.removed = tuple(removed)
        self.frozen = tuple(frozen)
        self.scratch, self.storage = new_scratch()
        self.log_path = self.scratch / "output.log"
        self.env = child_env(None, self.storage, sandbox)
        command = sandbox.command(
            [sandbox_python(), STANDBY, ",".join(PRELOAD), "-m", "pytest"],
            env=self.env,
            cwd=repo,
            writable=[self.scratch],
            overlays=self.overlays,
            removed=self.removed,
            frozen=self.frozen,
        )
        self.started = time.perf_counter()
        self.used = False
        with self.log_path.open("wb") as log:
            self.proc: subprocess.Popen[bytes] = subprocess.Popen(
                command.argv,
                cwd=repo,
                env=command.env,
                stdin=subprocess.PIPE,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def begin(self, args: Sequence[str]) -> subprocess.Popen[bytes]:
        """Send the pytest arguments (once) and hand over the running process.

        The message is written by a thread of its own: a standby that never reads it (stuck, or
        dead) cannot block the lane, whose wall clock then kills its group, ending the write."""
        if self.used:
            raise RunnerError("a standby test process serves one run only")
        self.used = True
        writer = threading.Thread(target=self._send, args=(encode_arguments(args),), daemon=True)
        writer.start()
        return self.proc

    def _send(self, message: bytes) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        # a standby that died shows it in its exit and log, read as for any test process
        try:
            stdin.write(message)
        except (OSError, ValueError):
            pass
        finally:
            with contextlib.suppress(OSError, ValueError):
                stdin.close()

    def close(self) -> None:
        """Kill the process and its group unless it was already reaped (`run_baseline` kills the
        group of a run it waited for), and remove its scratch folder; a second call does nothing."""
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        if self.proc.stdin is not None and not self.used:
            with contextlib.suppress(BrokenPipeError, OSError):
                self.proc.stdin.close()
        treewalk.rmtree(self.scratch, ignore_errors=True)


def start_standby(
    repo: Path,
    sandbox: Sandbox,
    *,
    overlays: Mapping[Path, Path] | None = None,
    removed: Sequence[str] = (),
    frozen: Sequence[str] = (),
) -> Standby | None:
    """A standby for one later `run_baseline`, or None where a process would start unsandboxed
    (then the run starts its own process, as without a standby)."""
    if not sandbox.enabled:
        return None
    return Standby(repo, sandbox, overlays=overlays, removed=removed, frozen=frozen)
