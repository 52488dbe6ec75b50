"""Test calls in fresh interpreters under other hash seeds: the `hash-seed` batch dimension.

A string's hash (and so the iteration order of a set or dict of strings built at run time) follows
the process's hash secret, fixed when the interpreter starts: it cannot vary inside a replay. A bare
interpreter starts in ~10 ms; what makes a replay process expensive is importing pytest and
collecting. So the plugin runs, for each hash-seed run, one child interpreter under its own
`PYTHONHASHSEED` (`dimensions.run_pins`) that imports the plugin-free test modules by name, with
the replay's `sys.path`, working directory and environment, and calls every eligible test once
(`eligible`: a module-level plain function with no fixtures, parameters or marks), in the replay's
order, each after `random.seed` with the same seed in every child: the children differ only in the
hash seed (and in what no pin holds: addresses, timing).

A child reads its spec as `marshal` bytes on stdin and reports `nonce TAB index TAB outcome TAB
seconds TAB detail` lines (`report_line`) on a private copy of its stdout, so that it imports no
`json` (a quarter of a bare child's start). The test's own output goes to /dev/null; a test that ends the child early leaves its and every
later test's run `failed` ("no result"), a child that runs past its deadline is killed and its
unreported runs are `failed` too. The lane judges a hash-seed batch by its own runs only: they
disagree (some pass, some fail) or they do not; a fresh interpreter that cannot reproduce what a
conftest set up fails every run the same way, which says nothing about the hash seed. Stdlib only:
the plugin imports this module inside every replay.
"""

from __future__ import annotations

import marshal
import os
import secrets
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# The child: read the spec, keep a private stdout, silence the test's output, call each test.
# Everything is a local of `_child` (the nonce above all): `import __main__` finds no spec, and a
# test must walk frames or the garbage collector (`diff-introspection`) to reach it.
CHILD_SOURCE = r"""
def _child():
    import importlib, marshal, os, random, sys, time
    spec = marshal.loads(sys.stdin.buffer.read())
    nonce = spec.pop("nonce")
    out = os.fdopen(os.dup(1), "w", encoding="utf-8", errors="backslashreplace")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0); os.dup2(null, 1); os.dup2(null, 2)
    sys.path[:] = spec["path"]
    for index, test in enumerate(spec["tests"]):
        started = time.perf_counter()
        outcome, detail = "passed", ""
        try:
            module = importlib.import_module(test["module"])
            if os.path.realpath(getattr(module, "__file__", "") or "") != test["file"]:
                raise ImportError("imported another file: " + str(getattr(module, "__file__", None)))
            function = getattr(module, test["function"])
            random.seed(test["seed"])
            function()
        except BaseException as exc:
            kind = type(exc)
            skip = kind.__name__ in ("Skipped", "SkipTest") and kind.__module__.startswith(
                ("_pytest", "unittest"))
            outcome = "skipped" if skip else "failed"
            detail = " ".join((kind.__name__ + ": " + str(exc)).split())[:300]
        seconds = time.perf_counter() - started
        out.write(f"{nonce}\t{index}\t{outcome}\t{seconds!r}\t{detail}\n")
        out.flush()
    out.close()
    os._exit(0)


_child()
"""

MAX_RESULT_BYTES = 1024 * 1024
# A child gets this long plus TIMEOUT_FACTOR times what its tests took in the replay's own pass.
TIMEOUT_SECONDS = 20.0
TIMEOUT_FACTOR = 20.0


@dataclass(frozen=True, slots=True)
class FreshTest:
    """One test call a child makes: the module's import name and real file, the function's name,
    the `random` seed, and the seconds its call took in the replay (for the child's deadline)."""

    module: str
    file: str
    function: str
    seed: int
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class FreshResult:
    """One test's run in one child."""

    outcome: str  # passed, failed or skipped
    detail: str
    seconds: float


def run_child(
    tests: Sequence[FreshTest],
    hash_seed: int,
    *,
    path: Sequence[str],
    env: Mapping[str, str],
) -> list[FreshResult]:
    """Every test of `tests` called once in a fresh interpreter under `PYTHONHASHSEED=hash_seed`;
    one result per test, in order (`failed` for every test the child did not report). Each child
    gets a nonce of its own (never the replay's channel nonce); a line with another nonce, or a
    second line for a test, is not the child's: then every run of that child is `failed`, with
    why (a forged report may not read as a pass)."""
    nonce = secrets.token_hex(16)
    spec = {
        "nonce": nonce,
        "path": list(path),
        "tests": [
            {"module": t.module, "file": t.file, "function": t.function, "seed": t.seed}
            for t in tests
        ],
    }
    deadline = TIMEOUT_SECONDS + TIMEOUT_FACTOR * sum(max(0.0, t.seconds) for t in tests)
    child_env = {**env, "PYTHONHASHSEED": str(hash_seed)}
    why = "no result (the child ended before this test reported)"
    with tempfile.TemporaryFile() as out:
        try:
            subprocess.run(
                [sys.executable, "-c", CHILD_SOURCE],
                input=marshal.dumps(spec),
                stdout=out,
                stderr=subprocess.DEVNULL,
                env=child_env,
                timeout=deadline,
                check=False,
            )
        except subprocess.TimeoutExpired:
            why = f"no result: the fresh interpreter ran past its {deadline:.0f} s deadline"
        except OSError as exc:
            why = f"no result: the fresh interpreter did not start ({exc})"
        out.seek(0)
        raw = out.read(MAX_RESULT_BYTES)
    found: dict[int, FreshResult] = {}
    forged = 0
    for line in raw.decode("utf-8", "replace").splitlines():
        report = parse_report(line)
        if report is None:
            forged += 1
            continue
        got, index, result = report
        if got != nonce or index in found or not 0 <= index < len(tests):
            forged += 1
            continue
        found[index] = result
    if forged:
        why = f"forged report: {forged} line(s) the fresh interpreter did not write"
        return [FreshResult("failed", why, 0.0) for _ in tests]
    return [found.get(i, FreshResult("failed", why, 0.0)) for i in range(len(tests))]


def report_line(nonce: str, index: int, outcome: str, detail: str, seconds: float) -> str:
    """One line as a child writes it (the format `parse_report` reads; `detail` has no whitespace
    but single spaces, as the child collapses it)."""
    return f"{nonce}\t{index}\t{outcome}\t{seconds!r}\t{detail}\n"


def parse_report(line: str) -> tuple[str, int, FreshResult] | None:
    """A child's report line as (nonce, index, result), or None when it is not one."""
    fields = line.split("\t")
    if len(fields) != 5 or fields[2] not in ("passed", "failed", "skipped"):
        return None
    got, index, outcome, seconds, detail = fields
    if not (index.isascii() and index.isdecimal()) or len(index) > 9:
        return None
    try:
        elapsed = float(seconds)
    except ValueError:
        return None
    elapsed = elapsed if 0.0 <= elapsed < float("inf") else 0.0
    return got, int(index), FreshResult(outcome, detail[:300], elapsed)


def real_file(path: str | None) -> str:
    """The resolved path the child compares an imported module's `__file__` with."""
    return os.path.realpath(path or "")
