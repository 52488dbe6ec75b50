"""Outside the sandbox: one sandboxed pytest process of the behaviour diff, timed and measured.

Every process is `python -m pytest` with the flags every test process of the lane gets
(`pytest_flags`), the lane plugin's record in a scratch folder named as a baseline run's is,
the same environment (`child_env`), and the lane's sandbox shape, except that no
git dir is inside (`Sandbox.git`): the head cannot read the base's code from git's objects. The one
test it runs is a generated module, mounted read-only at the tree's root, that calls the driver on
a job file in a read-only folder; the process writes only into its scratch folder. Every folder
is made under the host's `/tmp` (`private_folder`), which the sandbox covers. A recording run
is a test run of the request's tests with the recording plugin added (`record`).

The process's CPU is sampled while it runs (`tree_cpu`: user + system of it and every descendant,
with what each has waited for), since the sandbox's PID namespace reaps its processes where `wait4`
never sees them; past `wall` seconds it is killed, and its answers are whatever it wrote before.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lanegate.lanes.property.baseline import pytest_flags
from lanegate.lanes.property.behaviour import record
from lanegate.lanes.property.mutate_run import child_env
from lanegate.policy import Policy
from lanegate.sandbox import SANDBOX_TMP, Sandbox, sandbox_python

TEST_NAME = "test_lanegate_calls.py"
RECORD_PLUGIN = record.__name__
POLL_SECONDS = 0.02
_TEST_TEXT = """from lanegate.lanes.property.behaviour import driver


def test_calls():
    driver.main({job!r})
"""


def private_folder(prefix: str) -> Path:
    """A new folder under the host's `/tmp`, which every sandbox covers with an empty one of its
    own: whatever one process is given (the base's files, answers) no other can see, wherever
    `TMPDIR` points."""
    return Path(tempfile.mkdtemp(prefix=prefix, dir=SANDBOX_TMP))


@dataclass(frozen=True, slots=True)
class Tree:
    """Which version a process sees: the head's tree, or it with the base's files over it."""

    name: str  # "base" | "head"
    overlays: Mapping[Path, Path] = field(default_factory=dict)
    removed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Ran:
    """A finished process: where its answers are, how it ended, the CPU it spent."""

    answers: Path
    ended: str  # "" when it exited by itself, else why it was stopped
    cpu: float


class Launcher:
    """Starts the behaviour diff's processes in one sandbox, for one lane's policy."""

    def __init__(self, sandbox: Sandbox, policy: Policy) -> None:
        self.sandbox = sandbox
        self.policy = policy
        self.repo = sandbox.repo
        self._folders: list[Path] = []

    def close(self) -> None:
        for folder in self._folders:
            shutil.rmtree(folder, ignore_errors=True)
        self._folders.clear()

    def _folder(self, prefix: str) -> Path:
        folder = private_folder(prefix)
        self._folders.append(folder)
        return folder

    def _scratch(self) -> tuple[Path, Path]:
        """A process's scratch folder and its Hypothesis storage, named as a baseline run's are."""
        scratch = self._folder("lanegate-baseline-")
        storage = scratch / "hypothesis"
        storage.mkdir()
        return scratch, storage

    def job(self, tree: Tree, job: dict[str, Any], wall: float) -> Ran:
        """Run the driver on `job` over `tree`."""
        scratch, storage = self._scratch()
        jobs = self._folder("lanegate-calls-")
        answers = scratch / "answers.jsonl"
        job_file = jobs / "job.json"
        job_file.write_text(json.dumps({**job, "out": str(answers)}), encoding="utf-8")
        test = jobs / TEST_NAME
        test.write_text(_TEST_TEXT.format(job=str(job_file)), encoding="utf-8")
        arguments = [TEST_NAME]
        overlays = {**tree.overlays, self.repo / TEST_NAME: test}
        return self._run(arguments, tree, overlays, scratch, storage, [jobs], answers, wall)

    def recording(self, tests: Sequence[str], functions: list[dict[str, str]], wall: float) -> Ran:
        """Run `tests` at head with the recording plugin on `functions` (path, qualname)."""
        scratch, storage = self._scratch()
        jobs = self._folder("lanegate-calls-")
        answers = scratch / "calls.json"
        job_file = jobs / "record.json"
        job_file.write_text(
            json.dumps({"out": str(answers), "functions": functions}), encoding="utf-8"
        )
        arguments = ["-p", RECORD_PLUGIN, f"--lanegate-record-calls={job_file}", *tests]
        head = Tree("head")
        return self._run(arguments, head, {}, scratch, storage, [jobs], answers, wall)

    def _run(
        self,
        arguments: list[str],
        tree: Tree,
        overlays: Mapping[Path, Path],
        scratch: Path,
        storage: Path,
        readable: list[Path],
        answers: Path,
        wall: float,
    ) -> Ran:
        argv = [
            sandbox_python(),
            "-m",
            "pytest",
            *pytest_flags(self.policy),
            "--lanegate-observe=callback",
            "--lanegate-trace=",
            "-q",
            *arguments,
            f"--lanegate-out={scratch / 'baseline.json'}",
        ]
        command = self.sandbox.command(
            argv,
            env=child_env(None, storage, self.sandbox),
            cwd=self.repo,
            writable=[scratch],
            readable=readable,
            overlays=overlays,
            removed=tree.removed,
        )
        log = self._folder("lanegate-calls-log-") / "output.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(
                command.argv,
                cwd=self.repo,
                env=command.env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        ended, cpu = _wait(proc, wall)
        return Ran(answers, ended, cpu)


TICKS = os.sysconf("SC_CLK_TCK")


def tree_cpu(root: int) -> float:
    """CPU seconds of `root` and its live descendants, each with its waited-for children's."""
    total = 0
    seen: set[int] = set()
    todo = [root]
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            stat = Path(f"/proc/{pid}/stat").read_bytes()
            fields = stat[stat.rindex(b")") + 2 :].split()
            total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
            for task in Path(f"/proc/{pid}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_bytes().split()]
        except (OSError, ValueError):
            continue  # it ended meanwhile: its time is in its parent's cutime from now on
    return total / TICKS


def _wait(proc: subprocess.Popen[bytes], wall: float) -> tuple[str, float]:
    """Wait for `proc` at most `wall` seconds (then kill its group); how it ended and its CPU."""
    deadline = time.monotonic() + wall
    ended = ""
    sampled = 0.0
    while True:
        sampled = max(sampled, tree_cpu(proc.pid))
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() >= deadline:
            ended = f"did not finish in {wall:.0f} s"
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            pid, status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(POLL_SECONDS)
    proc.returncode = os.waitstatus_to_exitcode(status)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)  # nothing of the run outlives it
    return ended, max(sampled, usage.ru_utime + usage.ru_stime)
