"""Running one replay: a fresh `pytest` process in its own session, a clean environment, a wall clock,
and every process it left behind killed before the replay counts as done.

The pytest process is started through a tiny shell shim, so a test that kills its parent kills the
shim, not lanegate. Output goes to a file, never a pipe: a process left behind holding a pipe would
otherwise keep lanegate waiting.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lanegate.errors import RunnerError, SandboxError
from lanegate.lanes import pytest_plugins
from lanegate.lanes.context import usable_cpus
from lanegate.lanes.flake import pins as flake_plugin
from lanegate.lanes.flake import zonefiles
from lanegate.lanes.flake.plan import Plan, ReplayPin
from lanegate.lanes.pytest_args import path_argument
from lanegate.sandbox import OUTPUT_HINT, SANDBOX_TMP, Sandbox, sandbox_python

PLUGIN_MODULE = (
    "lanegate.lanes.flake.plugin"  # never imported by lanegate itself: it imports pytest
)
PYTHON_PLACEHOLDER = "python"
# Always disabled, whatever the policy lists: retry plugins, reordering plugins, the last-failed cache,
# and parallel workers (they would split the order and the in-process repeats the plan pins; when
# pytest-xdist is installed it is switched off with `-n 0` instead, see lanes/pytest_plugins.py).
ALWAYS_DISABLED = ("rerunfailures", "flaky", "pytest_retry", "randomly", "cacheprovider", "xdist")
MAX_RESULT_BYTES = 64 * 1024 * 1024
# The shim between lanegate and pytest: a shell that runs pytest as its child and waits (the second
# command keeps the shell from exec-ing pytest in its own place). A test that kills its parent kills
# the shell; lanegate sees it and kills the group. Inherited fds (the nonce pipe) pass through.
_SHIM = ("/bin/sh", "-c", '"$@"; exit $?', "lanegate-flake-shim")


@dataclass(frozen=True, slots=True)
class ReplaySpec:
    """What one replay runs: the recorded command, `NAME=value` pins first (like `env`), then
    `python -m pytest ...` where `python` stands for lanegate's own interpreter."""

    replay: int
    command: tuple[str, ...]

    @property
    def env(self) -> dict[str, str]:
        """The pinned environment variables at the head of the command."""
        return split_command(self.command)[0]

    @property
    def argv(self) -> tuple[str, ...]:
        """The command without its pins."""
        return split_command(self.command)[1]


@dataclass(frozen=True, slots=True)
class ReplayRun:
    """What one replay produced: the plugin's lines (nonce checked) and how the process ended."""

    replay: int
    exit_code: int | None
    seconds: float
    timed_out: bool
    lines: tuple[dict[str, Any], ...]
    forged_lines: int
    stray_processes: bool
    output_tail: str


def disabled_plugins(forbidden: Sequence[str]) -> tuple[str, ...]:
    """Every `-p no:` name: the always-disabled ones and the policy's forbidden ones, both spellings;
    an installed plugin that `lanegate.lanes.pytest_plugins` neutralizes with arguments instead is
    not disabled unless the policy forbids it."""
    names: list[str] = []
    neutralized = pytest_plugins.neutralized_names()
    always = [n for n in ALWAYS_DISABLED if n not in neutralized]
    for name in (*always, *forbidden):
        for spelling in (name, name.removeprefix("pytest_")):
            if spelling and spelling not in names:
                names.append(spelling)
    return tuple(names)


_ENV_NAME = re.compile(r"^[A-Z_][A-Z0-9_]*$")


def recorded_command(pins: Mapping[str, str], argv: Sequence[str]) -> tuple[str, ...]:
    """`NAME=value ... python -m pytest ...`: the pins and the command as one reproducible record."""
    return (*(f"{k}={v}" for k, v in sorted(pins.items())), *argv)


def split_command(command: Sequence[str]) -> tuple[dict[str, str], tuple[str, ...]]:
    """The pins and the argv of a recorded command; anything malformed is a `RunnerError`."""
    env: dict[str, str] = {}
    index = 0
    while index < len(command) and command[index] != PYTHON_PLACEHOLDER:
        name, sep, value = command[index].partition("=")
        if not sep or not _ENV_NAME.match(name):
            raise RunnerError(f"recorded replay command: {command[index]!r} is not NAME=value")
        env[name] = value
        index += 1
    argv = tuple(command[index:])
    if not argv:
        raise RunnerError(f"recorded replay command has no {PYTHON_PLACEHOLDER!r} part")
    return env, argv


def pytest_command(node_ids: Sequence[str], forbidden: Sequence[str]) -> tuple[str, ...]:
    """The pytest argv of a replay (`python` stands for lanegate's interpreter)."""
    command = [PYTHON_PLACEHOLDER, "-m", "pytest", "-p", PLUGIN_MODULE]
    for name in disabled_plugins(forbidden):
        command += ["-p", f"no:{name}"]
    # --tb=no: the plugin records each failure's one-line cause; pytest's long tracebacks (which parse
    # every failing module's source again) would cost more than the test runs.
    command += ["--rootdir=.", "-q", "--no-header", "--tb=no", "-o", "console_output_style=classic"]
    command += [*pytest_plugins.extra_args(), "--", *(path_argument(n) for n in node_ids)]
    return tuple(command)


def pinned_env(pin: ReplayPin, plan: Plan, forbidden: Sequence[str]) -> dict[str, str]:
    """The recorded environment of a replay: every pin, nothing machine-specific."""
    return {
        "PYTHONHASHSEED": str(pin.hash_seed),
        "TZ": pin.tz,
        flake_plugin.ORDER_VAR: str(pin.order),
        flake_plugin.ORDER_SEED_VAR: str(pin.order_seed if pin.order_seed is not None else 0),
        flake_plugin.RANDOM_SEED_VAR: str(pin.random_seed),
        flake_plugin.REPEATS_VAR: str(pin.repeats),
        flake_plugin.EXTRA_REPEATS_VAR: str(pin.extra_repeats),
        flake_plugin.EXTRA_TESTS_VAR: ",".join(plan.extra_tests) if pin.extra_repeats else "",
        flake_plugin.FORBIDDEN_VAR: ",".join(disabled_plugins(forbidden)),
        flake_plugin.HYPOTHESIS_DB_VAR: "off",
        flake_plugin.BATCHES_VAR: json.dumps(
            [[b.node_id, str(b.dimension), b.runs] for b in plan.batches_of(pin.replay)],
            separators=(",", ":"),
        ),
        **({flake_plugin.PRIVILEGE_VAR: flake_plugin.PRIVILEGE_ROOT} if pin.privileged else {}),
    }


def clean_env(pins: Mapping[str, str], tmp_dir: Path, sandbox: Sandbox) -> dict[str, str]:
    """The whole environment of a replay process: what head code may see of lanegate's own
    (`Sandbox.environment`, without CI's markers: a replay is the same on any machine), then the
    pins."""
    env = sandbox.environment(ci_markers=False)
    env.update(pins)
    env["TMPDIR"] = str(tmp_dir)
    # A fresh, empty Hypothesis storage per replay: no example database carries over.
    env["HYPOTHESIS_STORAGE_DIRECTORY"] = str(tmp_dir / "hypothesis")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _argv(command: Sequence[str]) -> list[str]:
    if not command or command[0] != PYTHON_PLACEHOLDER:
        raise RunnerError(f"replay command must start with {PYTHON_PLACEHOLDER!r}: {command[:3]}")
    return [sandbox_python(), *command[1:]]


def _group_members(pgid: int) -> bool:
    """True when a live (non-zombie) process is still in the process group."""
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    proc = Path("/proc")
    if not proc.is_dir():
        return True
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[-1].split()
        except OSError:
            continue
        if len(fields) > 2 and fields[2] == str(pgid) and fields[0] not in ("Z", "X"):
            return True
    return False


def _survivors(pgid: int, grace: float = 2.0) -> bool:
    """Sandboxed, every process of the replay lives in its PID namespace, which the kernel empties
    once pytest has exited (the plugin inside blames a test for any child it left): only a process
    still in the group after the kill and a grace period is a survivor."""
    _kill_group(pgid)
    deadline = time.monotonic() + grace
    while _group_members(pgid):
        if time.monotonic() >= deadline:
            return True
        time.sleep(0.01)
    return False


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _read_lines(path: Path, nonce: str) -> tuple[list[dict[str, Any]], int]:
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return [], 0
    if size > MAX_RESULT_BYTES:
        raise RunnerError(f"replay result file grew to {size} bytes; a test is flooding it")
    lines: list[dict[str, Any]] = []
    forged = 0
    for raw in path.read_bytes().splitlines():
        try:
            value = json.loads(raw)
        except ValueError:
            forged += 1
            continue
        if not isinstance(value, dict) or value.get("nonce") != nonce:
            forged += 1
            continue
        lines.append(value)
    return lines, forged


# Linux refuses an exec whose single argument or environment string passes 128 KiB (MAX_ARG_STRLEN)
# or whose whole argv and environment pass ARG_MAX (a quarter of the stack limit, 2 MiB by default)
# with E2BIG, "Argument list too long". A replay's batches (a few entries a test: 3,000
# parametrized ids are hundreds of KiB) go to pytest in a file past `INLINE_PIN_BYTES`, named in
# the variable as `@PATH` (the recorded command keeps them whole: `--replay N` writes the file
# again); past `MAX_BATCH_BYTES`, or a command line past `MAX_COMMAND_BYTES`, the replay is refused.
INLINE_PIN_BYTES = 32 * 1024
MAX_BATCH_BYTES = 64 * 1024 * 1024
MAX_COMMAND_BYTES = 1024 * 1024
_SHARD_HINT = (
    "split the selection: run the flake lane in shards (lanegate flake --shard K/N), or split the "
    "diff's test files"
)


def _spill_batches(replay: int, pins: dict[str, str], private: Path) -> None:
    """Move a replay's batches from its environment to a file in its private folder when they
    are too long for one environment string (`INLINE_PIN_BYTES`); refuse them past
    `MAX_BATCH_BYTES`."""
    value = pins.get(flake_plugin.BATCHES_VAR, "")
    size = len(value.encode("utf-8"))
    if size > MAX_BATCH_BYTES:
        raise RunnerError(
            f"replay {replay}: its batches take {size} bytes, more than lanegate passes to a "
            f"replay ({MAX_BATCH_BYTES})",
            hint=_SHARD_HINT,
        )
    if size > INLINE_PIN_BYTES or value.startswith("@"):
        spilled = private / "batches.json"
        spilled.write_text(value, encoding="utf-8")
        pins[flake_plugin.BATCHES_VAR] = f"@{spilled}"


def _check_command_length(replay: int, argv: Sequence[str]) -> None:
    """Refuse a pytest command line the kernel would refuse (E2BIG), saying so."""
    size = sum(len(a.encode("utf-8")) + 1 for a in argv)
    if size > MAX_COMMAND_BYTES or any(len(a.encode("utf-8")) >= 128 * 1024 for a in argv):
        raise RunnerError(
            f"replay {replay}: its pytest command line takes {size} bytes ({len(argv)} "
            f"arguments), more than lanegate starts a process with ({MAX_COMMAND_BYTES})",
            hint=_SHARD_HINT,
        )


def run_replay(
    repo: Path,
    spec: ReplaySpec,
    wall_seconds: float,
    work_dir: Path,
    *,
    sandbox: Sandbox,
    overlays: Mapping[Path, Path] | None = None,
    removed: Sequence[str] = (),
) -> ReplayRun:
    """Run one replay in `sandbox` to the end (or the wall clock), kill its process group (and so
    the sandbox's whole PID namespace), read its outcomes. `overlays` and `removed`: files mounted
    over the tree and left out of it (`Sandbox.command`), for a view of another commit."""
    token = secrets.token_hex(8)
    private = work_dir / f"replay-{spec.replay}-{token}"
    private.mkdir(mode=0o700)
    # in the sandbox the replay's /tmp is a private tmpfs of its own: TMPDIR stays the short
    # path tests expect (a pytest `tmp_path` under a deep TMPDIR passes the 107 bytes a Unix
    # socket's path may hold); unsandboxed, each replay gets a folder of its own
    tmp_dir = Path(SANDBOX_TMP) if sandbox.enabled else private / "tmp"
    if not sandbox.enabled:
        tmp_dir.mkdir()
    # no suffix: a test that checks for leaked files by theirs (`.jsonl`, `.log`) among its
    # process's open files must not find the plugin's outcomes or the replay's output (pytest's
    # capture keeps the original stdout and stderr open beside its own)
    result_path = private / f"outcomes-{token}"
    log_path = private / "output"
    nonce = secrets.token_hex(16)
    read_fd, write_fd = os.pipe()
    os.write(write_fd, nonce.encode("ascii"))
    os.close(write_fd)
    pins = spec.env
    privilege = pins.pop(flake_plugin.PRIVILEGE_VAR, None)  # the sandbox's to grant, not a test's
    if privilege not in (None, flake_plugin.PRIVILEGE_ROOT):
        raise RunnerError(
            f"replay {spec.replay}: {flake_plugin.PRIVILEGE_VAR}={privilege!r} is not "
            f"{flake_plugin.PRIVILEGE_ROOT!r}"
        )
    _spill_batches(spec.replay, pins, private)
    _check_command_length(spec.replay, spec.argv)
    env = clean_env(pins, tmp_dir, sandbox)
    env[flake_plugin.ZONEINFO_VAR] = str(zonefiles.write(private / "zoneinfo"))
    env[flake_plugin.CHANNEL_VAR] = f"{read_fd}:{result_path}"
    # unsandboxed, the shell shim keeps a test that kills its parent from ending the replay unseen;
    # in the sandbox pytest's parent is the namespace's init, which its tests cannot signal
    command = _argv(spec.argv) if sandbox.enabled else [*_SHIM, *_argv(spec.argv)]
    try:
        sandboxed = sandbox.command(
            command,
            env=env,
            cwd=repo,
            writable=[private],
            overlays=overlays,
            removed=removed,
            privileged=privilege is not None,
        )
    except SandboxError as exc:
        raise RunnerError(f"replay {spec.replay}: {exc}") from None
    started = time.monotonic()
    timed_out = False
    try:
        with log_path.open("wb") as log:
            try:
                proc = subprocess.Popen(
                    sandboxed.argv,
                    cwd=repo,
                    env=sandboxed.env,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                    pass_fds=(read_fd,),
                )
            except OSError as exc:
                raise RunnerError(f"cannot start pytest for replay {spec.replay}: {exc}") from None
    finally:
        os.close(read_fd)
    try:
        exit_code: int | None = proc.wait(timeout=wall_seconds)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc.pid)
        proc.wait()
        exit_code = None
    seconds = time.monotonic() - started
    stray = _survivors(proc.pid) if sandbox.enabled else _group_members(proc.pid)
    _kill_group(proc.pid)
    cut = sandbox.output_passed(f"replay {spec.replay} (pytest)", log_path)
    if cut is not None:
        raise RunnerError(cut, hint=OUTPUT_HINT)
    lines, forged = _read_lines(result_path, nonce)
    with log_path.open("rb") as log:  # its last bytes only: the log may be file_mb long
        log.seek(max(0, log.seek(0, os.SEEK_END) - 2000))
        tail = log.read().decode("utf-8", "replace")
    return ReplayRun(
        replay=spec.replay,
        exit_code=exit_code,
        seconds=seconds,
        timed_out=timed_out,
        lines=tuple(lines),
        forged_lines=forged,
        stray_processes=stray,
        output_tail=tail,
    )


def side_by_side(
    repo: Path,
    specs: Sequence[ReplaySpec],
    wall_seconds: float,
    work_dir: Path,
    *,
    sandbox: Sandbox,
) -> list[ReplayRun]:
    """Run these replays, in the plan's order of results, at most one per usable CPU at a time.

    Only in the sandbox: there each replay has its own copy of the tree, its own /tmp, network and
    PID namespace, so two replays meet nowhere but on the CPU (a busier machine, which the stress
    dimension makes on purpose). Unsandboxed they would share the checkout, so they run one by one."""
    workers = min(len(specs), usable_cpus()) if sandbox.enabled else 1
    if workers <= 1:
        return [run_replay(repo, spec, wall_seconds, work_dir, sandbox=sandbox) for spec in specs]
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="lanegate-replay") as pool:
        futures = [
            pool.submit(run_replay, repo, spec, wall_seconds, work_dir, sandbox=sandbox)
            for spec in specs
        ]
        return [future.result() for future in futures]


def check_refusal(run: ReplayRun) -> None:
    """Raise `RunnerError` when the replay refused to run: a forbidden plugin, or pytest's usage error."""
    for line in run.lines:
        if line.get("kind") == "refused":
            plugins = ", ".join(str(p) for p in line.get("plugins", []))
            raise RunnerError(
                f"replay {run.replay}: forbidden pytest plugin still active: {plugins}",
                hint="remove it from the test dependencies or conftest (lane.forbidden_pytest_plugins)",
            )
    kinds = {line.get("kind") for line in run.lines}
    if run.exit_code == 4 and "collected" not in kinds:
        last = [ln for ln in run.output_tail.strip().splitlines() if ln.strip()][-1:]
        raise RunnerError(
            f"replay {run.replay}: pytest refused its command line: {last[0] if last else 'exit 4'}",
            hint="the test config's addopts may use an option of a plugin that is disabled or "
            "not installed in lanegate's interpreter (--reruns is refused; -n needs pytest-xdist)",
        )
