"""The mutant workers' fork server, run in each worker's sandbox: pytest configured once, a child per mutant.

`python -m lanegate.lanes.property.fork_server --serve` reads an init line (the pytest arguments and
the test files to preload) and then one JSON job per line from stdin; for each job it forks a child
that applies the mutant, runs the job's tests under the property plugin and writes its record, and it
answers with the child's exit, wall time and peak memory on stdout. The lane side (`mutate_run`)
starts the workers and reads the answers. This module imports only the standard library at start:
each worker pays for pytest, Hypothesis and the plugin, not for the lane's own modules.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import select
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def _run_child(config: Any, session: Any, job: dict[str, Any], preloaded: list[str]) -> None:
    """In the forked child: own process group, output to a log, run the job's tests, never return.

    pytest is already configured and its session started in the server; the child only collects and
    runs (pytest's own `_main`) and finishes the session, as `wrap_session` would.
    """
    try:
        os.setpgid(0, 0)
        # stdin is the server's job pipe: its open file description (and flags such as O_NONBLOCK)
        # is shared with this child, so the child must not keep it
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        fd = os.open(job["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        from _pytest.main import _main
        from _pytest.outcomes import Exit

        from lanegate.lanes.property import plugin
        from lanegate.lanes.property.hotpatch import swap_function_code
        from lanegate.lanes.property.importhook import install_mutant, write_mutant_on_disk

        plugin.JOB = {"out": job["out"], "tests": job["tests"]}
        if job.get("mutant"):
            spec = json.loads(Path(job["mutant"]).read_text(encoding="utf-8"))
            target = Path(spec["path"])
            if spec.get("on_disk"):  # the sandbox's copy; the server puts the original back
                write_mutant_on_disk(target, spec["source"])
            swapped = swap_function_code(
                target, spec["source"], spec["function"], int(spec["function_line"])
            )
            if not swapped:
                # fall back to a fresh import of the mutant, and of every test module that may
                # hold the original, through the import hook
                for name in preloaded:
                    sys.modules.pop(name, None)
                install_mutant(target, spec["source"])
        try:
            status = int(_main(config, session) or 0)
        except session.Failed:
            status = 1
        except (KeyboardInterrupt, Exit, session.Interrupted):
            status = 2
        session.exitstatus = status
        config.hook.pytest_sessionfinish(session=session, exitstatus=status)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    except BaseException:  # noqa: BLE001 - a child must never return into the server loop
        os._exit(70)


def resident_bytes(pid: int) -> int:
    """The resident memory of a live process in bytes (0 where /proc cannot tell)."""
    try:
        fields = Path(f"/proc/{pid}/statm").read_text().split()
        return int(fields[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


@dataclass(frozen=True, slots=True)
class _Ended:
    code: int | None
    timed_out: bool = False
    over_memory: bool = False
    peak_rss: int = 0


def _pidfd(pid: int) -> int | None:
    """A file descriptor that becomes readable when child `pid` exits (Linux 5.3+), else None."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _wait(pid: int, timeout: float, memory_cap: int = 0) -> _Ended:
    """Wait for a child; kill its group at the wall clock or when its resident memory passes
    `memory_cap` bytes (0: no cap), sampled as often as the wait polls (every 20 ms at most).
    A pause ends early when the child exits (a poll on its pidfd): a short mutant's answer no
    longer waits out the rest of a pause, and the samples and the deadline are the same."""
    deadline = time.monotonic() + timeout
    pause = 0.001
    peak = 0
    fd = _pidfd(pid)
    poller = select.poll()
    if fd is not None:
        poller.register(fd, select.POLLIN)
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return _Ended(os.waitstatus_to_exitcode(status), peak_rss=peak)
            rss = resident_bytes(pid)
            peak = max(peak, rss)
            over = bool(memory_cap) and rss > memory_cap
            if over or time.monotonic() > deadline:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                os.waitpid(pid, 0)
                return _Ended(None, timed_out=not over, over_memory=over, peak_rss=peak)
            if fd is None:
                time.sleep(pause)
            else:
                poller.poll(max(1, round(pause * 1000)))
            pause = min(pause * 2, 0.02)
    finally:
        if fd is not None:
            os.close(fd)


def _end_strays() -> None:
    """Inside the sandbox's own PID namespace: stop every process but this server and its
    ancestors, so that nothing one mutant's tests started (a `setsid` daemon included) is still
    running when the next mutant's tests start."""
    keep = {os.getpid()}
    pid = os.getppid()
    while pid > 1 and pid not in keep:
        keep.add(pid)
        try:
            stat = Path(f"/proc/{pid}/stat").read_bytes()
        except OSError:
            break
        pid = int(stat[stat.rfind(b")") + 2 :].split()[1])
    keep.add(1)
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) not in keep:
            with contextlib.suppress(OSError):
                os.kill(int(entry), signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def _preload(config: Any, test_files: list[Path]) -> list[str]:
    """Import the test modules (and so the code under test) once, the way pytest's collection will.

    Children then find them in sys.modules and only pay for building test items. Returns the names
    of every module imported here, for the fallback path that must import them afresh.
    """
    from _pytest.pathlib import import_path

    before = set(sys.modules)
    for path in test_files:
        try:
            import_path(
                path,
                mode=config.getoption("importmode"),
                root=config.rootpath,
                consider_namespace_packages=config.getini("consider_namespace_packages"),
            )
        except Exception:  # noqa: BLE001 - the child will import it itself and report the error
            continue
    return [name for name in sys.modules if name not in before]


def _warm_hypothesis() -> None:
    """Let Hypothesis scan the loaded modules for constants once here, not once per mutant."""
    try:
        from hypothesis.internal.conjecture import providers

        providers._get_local_constants()
    except Exception:  # noqa: BLE001 - a private helper of Hypothesis: optional warm-up only
        return


def _on_disk(job: dict[str, Any]) -> Callable[[], None] | None:
    """What puts the mutated file back after a child that writes its mutant on disk (None: the
    job writes nothing). The original comes from the lane, not from the file, which the tests of
    an earlier child could have changed."""
    if not job.get("mutant"):
        return None
    from lanegate.lanes.property.importhook import restore_on_disk

    spec = json.loads(Path(job["mutant"]).read_text(encoding="utf-8"))
    if not spec.get("on_disk"):
        return None
    path = Path(spec["path"])
    before = os.stat(path)
    times = (before.st_atime_ns, before.st_mtime_ns)
    return lambda: restore_on_disk(path, spec["original"], times)


def serve(stdin: Any, stdout: Any) -> None:
    """The fork server loop: an init line with the pytest arguments, then one JSON job per line.

    pytest is configured once here (arguments parsed, plugins and conftest files loaded) and each child
    only collects and runs its tests: the setup a fresh `pytest` would pay per mutant is paid once.
    """
    # the cycle collector pauses for the server's own imports, as for a standby's (`boot.preload`):
    # what they create lives as long as the server, and no code of the repository runs in them
    collecting = gc.isenabled()
    gc.disable()
    try:
        import _pytest.main  # noqa: F401
        import _pytest.outcomes  # noqa: F401
        from _pytest.config import _prepareconfig

        # every module a child imports is imported here, before Hypothesis scans the loaded
        # modules for constants (`_warm_hypothesis`): a child that imported one would rescan on
        # its first case
        import lanegate.lanes.property.hotpatch  # noqa: F401
        import lanegate.lanes.property.importhook  # noqa: F401
        import lanegate.lanes.property.plugin  # noqa: F401
    finally:
        if collecting:
            gc.enable()

    # pytest's global capture keeps fd 0 pointed at /dev/null after configuring (it suspends only
    # stdout/stderr), so the job pipe is read from a private duplicate taken before, unbuffered
    # until then so that no job line is swallowed by a buffer we drop
    jobs_fd = os.dup(stdin.fileno())
    stdout.flush()
    answers = os.fdopen(os.dup(stdout.fileno()), "w", encoding="utf-8")
    raw = b""
    while not raw.endswith(b"\n"):
        chunk = os.read(jobs_fd, 1)
        if not chunk:
            return
        raw += chunk
    init = json.loads(raw)
    # nothing but the answers may reach the lane through fd 1: pytest's capture saves and restores
    # the fds it finds here, so they must not be the answer pipe
    null_out = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null_out, 1)
    from _pytest.main import Session

    config = _prepareconfig(list(init["args"]))
    preloaded = _preload(config, [Path(p) for p in init.get("preload", [])])
    session = Session.from_config(config)
    session.exitstatus = 0
    config._do_configure()
    config.hook.pytest_sessionstart(session=session)
    if "hypothesis" in sys.modules:  # the tests use it: every child starts warm
        _warm_hypothesis()
    # everything imported so far is shared by every child: keep the collector from walking it (and
    # from touching its pages, which keeps fork's copy-on-write cheap)
    gc.collect()
    gc.freeze()
    stdin = os.fdopen(jobs_fd, "r", encoding="utf-8")
    for line in stdin:
        job = json.loads(line)
        restore = _on_disk(job)
        started = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            _run_child(config, session, job, preloaded)
        ended = _wait(pid, float(job["timeout"]), int(job.get("memory_cap", 0)))
        if init.get("contained"):
            _end_strays()
        if restore is not None:
            restore()
        answer = {
            "id": job["id"],
            "exit": ended.code,
            "timed_out": ended.timed_out,
            "over_memory": ended.over_memory,
            "peak_rss": ended.peak_rss,
            "seconds": time.perf_counter() - started,
        }
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


if __name__ == "__main__":
    if sys.argv[1:] != ["--serve"]:
        raise SystemExit("usage: python -m lanegate.lanes.property.fork_server --serve")
    serve(sys.stdin, sys.stdout)
