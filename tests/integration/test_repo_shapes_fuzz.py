"""A property-based fuzz of hostile repository shapes (issue 47).

Hypothesis builds small git repositories whose base and head hold hostile entries: names that are
not UTF-8, start with `-` or `@`, hold a newline or are 200 bytes long; links out of the tree, to a
device, in a loop, and the output folder `.lanegate` as a link out; a FIFO in the work tree; a tree
1,100 folders deep (past the recursion limit); empty, binary and 2 MB files; Python files declared
latin-1 and utf-7; test files among them. On each, `lanegate diff`, `lanegate lint` and `lanegate
run` (which starts the property, fixture and flake lanes' own commands, then the scorer) must end
with a verdict (exit 0 or 1) or one line of error (exit 2): no traceback, no exit 3, no hang (a
process past its timeout fails the example), and nothing outside the repository touched (a folder
beside it that links point into, and the device nodes of `tests.hostwatch`).

Bounded for CI: `SHAPES` examples per run, derandomized (the same shapes every run, so a failure
reproduces), about 5-8 s each on an idle 2-core machine. They run in two halves, this file and
`test_repo_shapes_fuzz_half2.py`: both draw the same examples (the one body below, whose source
seeds the derandomized draw) and each shape is judged in the half a hash of its entries picks, so
every shape runs exactly once and xdist's loadfile gives the two halves to both workers.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from lanegate import treewalk
from tests import hostwatch
from tests.gitrepo import GIT_ENV, git

SHAPES = 8
HALVES = 2
TIMEOUT_SECONDS = 240
DEEP_LEVELS = 1_100

NAMES: tuple[bytes, ...] = (
    b"plain",
    b"-rf",
    b"@args",
    b"new\nline",
    b"x" * 200,
    b"caf\xe9",  # latin-1 bytes: not UTF-8
    b"-p",
    b"a b",
)
KINDS = (
    "text",
    "python",
    "test",
    "fixture",
    "binary",
    "empty",
    "huge",
    "latin1",
    "utf7",
    "link_out",
    "link_dev",
    "link_loop",
    "lanegate_link",
    "fifo",
    "deep",
)
UTF7_SOURCE = b"# coding: utf-7\nX = 1\n# note+AAo-Y = 2\n"


def _path(kind: str, name: bytes) -> bytes:
    return {
        "text": b"data/" + name + b".txt",
        "python": b"pkg/" + name + b".py",
        "test": b"tests/test_" + name + b".py",
        "fixture": b"tests/fixtures/" + name + b".bin",
        "binary": b"data/" + name + b".bin",
        "empty": b"data/empty_" + name,
        "huge": b"data/huge_" + name,
        "latin1": b"pkg/l1_" + name + b".py",
        "utf7": b"pkg/u7_" + name + b".py",
        "link_out": b"data/out_" + name,
        "link_dev": b"tests/dev_" + name + b".py",
        "link_loop": b"data/loop_" + name,
        "lanegate_link": b".lanegate",
        "fifo": b"data/fifo_" + name,
        "deep": b"deep/" + b"d/" * DEEP_LEVELS + name + b".txt",
    }[kind]


def _make(repo: bytes, kind: str, name: bytes, outside: Path) -> None:
    target = os.path.join(repo, _path(kind, name))
    if os.path.lexists(target):
        return
    treewalk.makedirs(os.fsdecode(os.path.dirname(target)))
    if kind in ("link_out", "lanegate_link"):
        os.symlink(os.fsencode(outside), target)
    elif kind == "link_dev":
        os.symlink(b"/dev/null", target)
    elif kind == "link_loop":
        os.symlink(os.path.basename(target), target)
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        data = {
            "text": b"hello " + name + b"\n",
            "python": b"def f(x):\n    return x + 1\n",
            "test": b"def test_it():\n    assert 1 + 1 == 2\n",
            "fixture": b"\x00\x01fixture",
            "binary": bytes(range(256)),
            "empty": b"",
            "huge": b"0123456789abcdef\n" * (2_000_000 // 17),
            "latin1": "# coding: latin-1\nNAME = 'caf\xe9'\n".encode("latin-1"),
            "utf7": UTF7_SOURCE,
            "deep": b"deep\n",
        }[kind]
        with open(target, "wb") as handle:
            handle.write(data)


ENTRY = st.tuples(st.sampled_from(KINDS), st.sampled_from(NAMES), st.sampled_from(("base", "head")))


def _build(root: Path, entries: list[tuple[str, bytes, str]], outside: Path) -> Path:
    repo = root / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "lanegate.toml").write_text("[fixtures]\nallow_none = true\n")
    (repo / "pkg").mkdir()
    (repo / "pkg" / "__init__.py").write_text("")
    (repo / "pkg" / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    (repo / "tests").mkdir()
    (repo / "tests" / "test_calc.py").write_text(
        "from pkg.calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"
    )
    raw = os.fsencode(repo)
    for kind, name, side in entries:
        if side == "base":
            _make(raw, kind, name, outside)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "agent")
    for kind, name, side in entries:
        if side == "head":
            _make(raw, kind, name, outside)
    (repo / "pkg" / "calc.py").write_text("def add(a, b):\n    return b + a\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "head")
    return repo


def _state(folder: Path) -> dict[str, str]:
    out = {}
    for here, _dirs, files in treewalk.walk(folder):
        for name in files:
            path = os.path.join(here, name)
            with open(path, "rb") as handle:
                out[path] = hashlib.sha256(handle.read()).hexdigest()
    return out


def _lanegate(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "PYTEST_"))}
    try:
        return subprocess.run(
            [sys.executable, "-m", "lanegate", *args],
            cwd=repo,
            env={**env, **GIT_ENV},
            capture_output=True,
            text=True,
            errors="replace",
            check=False,
            timeout=TIMEOUT_SECONDS,
        )
    except subprocess.TimeoutExpired:
        raise AssertionError(f"lanegate {args[0]} did not end in {TIMEOUT_SECONDS} s") from None


def _ends_well(done: subprocess.CompletedProcess[str], what: str) -> None:
    shown = (
        f"lanegate {what} exited {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    )
    assert done.returncode in (0, 1, 2), shown
    assert "Traceback" not in done.stdout + done.stderr, shown
    if done.returncode == 2:
        errors = [ln for ln in done.stderr.splitlines() if ln.startswith("lanegate: error")]
        assert len(errors) == 1, shown


def test_hostile_repository_shapes_end_in_a_verdict_or_one_line(
    tmp_path_factory: object, entries: list[tuple[str, bytes, str]]
) -> None:
    root = tmp_path_factory.mktemp("shape")  # type: ignore[attr-defined]
    outside = root / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("outside the repository\n")
    devices = hostwatch.snapshot(files=(), checkout=False)
    before = _state(outside)
    try:
        repo = _build(root, entries, outside)
        _ends_well(_lanegate(repo, "diff", "--base", "main"), "diff")
        _ends_well(_lanegate(repo, "lint", "--format", "json", "."), "lint")
        done = _lanegate(repo, "run", "--base", "main", "--quiet", "--out", "lanegate-out")
        _ends_well(done, "run")
        assert _state(outside) == before
        assert [p.name for p in outside.iterdir()] == ["secret.txt"]
        assert hostwatch.changes(devices, hostwatch.snapshot(files=(), checkout=False)) == []
    finally:
        treewalk.rmtree(root, ignore_errors=True)  # pytest's own clean-up recurses per level


# The body above, not yet a test: each half wraps it (its source, hence its draw, unchanged).
_JUDGE = test_hostile_repository_shapes_end_in_a_verdict_or_one_line


def _half(entries: list[tuple[str, bytes, str]]) -> int:
    """Which half judges this shape: a hash of its entries (stable on Hypothesis's replay; it
    splits the draw 3 and 5, each half with one of the two 1,100-level trees)."""
    return hashlib.sha256(repr(entries).encode()).digest()[0] % HALVES


def shapes_half(half: int) -> Callable[..., None]:
    """The fuzz test judging the shapes of `half` of the one derandomized draw."""

    @wraps(_JUDGE)
    def judge_half(tmp_path_factory: object, entries: list[tuple[str, bytes, str]]) -> None:
        if _half(entries) == half:  # the other half's shapes are judged in the other file
            _JUDGE(tmp_path_factory, entries)

    return settings(
        max_examples=SHAPES,
        derandomize=True,
        deadline=None,
        database=None,
        phases=(Phase.explicit, Phase.generate),  # no shrinking: each shape is seconds of runs
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )(given(entries=st.lists(ENTRY, min_size=1, max_size=6))(judge_half))


test_hostile_repository_shapes_end_in_a_verdict_or_one_line = shapes_half(0)
