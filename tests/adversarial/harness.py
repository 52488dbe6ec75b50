"""Hostile diffs end to end: build the base repository, apply one case as an agent's head commit, run
`lanegate run` in a real git repository, and check what an attacker must not get.

A case is a folder `cases/<class>/<name>/` with `case.toml` (`class`, `expect` = "fail" | "pass",
`why`, optional `rules_any`, `timeout_seconds`), optional `base/` (written over the demo's base tree
before the base commit: a base suite the attack needs, trusted), `files/` (written over the base tree
for the head commit), optional
`delete.txt` (paths removed) and optional `create.py` (run by the harness, trusted, in the repository
before the head commit: for names git's work tree cannot hold as plain files). The harness fails a case
when the verdict is not the expected one, lanegate printed a traceback, a sentinel file outside the
repository changed (`$HOME`, `../victim/`), or a process carrying `REDTEAM` in its argv survived.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

from tests.gitrepo import GIT_ENV, git

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "examples" / "demo" / "base"
CASE_DRAW = ("--mutant-draw", "1")
CASES = Path(__file__).resolve().parent / "cases"
MARKER = "REDTEAM"  # every process a case leaves behind carries it; the harness makes it unique
SENTINEL = "sentinel: must stay exactly as it is\n"
EXPECTATIONS = ("fail", "pass")


@dataclass(frozen=True, slots=True)
class Case:
    """One hostile diff (or honest control) and what lanegate must answer."""

    name: str
    folder: Path
    klass: str
    expect: str
    why: str
    rules_any: tuple[str, ...]
    timeout: float
    # the case's base/ is a whole repository of its own (not an overlay of examples/demo/base)
    standalone: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one end-to-end run produced, and every harness check that failed."""

    exit_code: int | None
    fails: tuple[str, ...]
    output: str
    problems: tuple[str, ...]


def load_cases(root: Path = CASES) -> list[Case]:
    """Every case under `root`, sorted by class and name."""
    found = []
    for toml_path in sorted(root.glob("*/*/case.toml")):
        data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
        expect = data["expect"]
        if expect not in EXPECTATIONS:
            raise ValueError(f"{toml_path}: expect: {expect!r} is not one of {EXPECTATIONS}")
        found.append(
            Case(
                name=f"{toml_path.parent.parent.name}/{toml_path.parent.name}",
                folder=toml_path.parent,
                klass=data["class"],
                expect=expect,
                why=data["why"],
                rules_any=tuple(data.get("rules_any", ())),
                timeout=float(data.get("timeout_seconds", 240)),
                standalone=bool(data.get("standalone", False)),
            )
        )
    return found


def _copy_overlay(files: Path, repo: Path, tag: str) -> None:
    """Copy the case's files over the tree, with the process marker made unique to this run."""
    if not files.is_dir():
        return
    # fresh modification times (`shutil.copy`, not `copy2`): a file the overlay replaces with one
    # of the same size and an older time would look unchanged to git's stat check, and the head
    # commit would silently keep the base's bytes
    shutil.copytree(files, repo, dirs_exist_ok=True, symlinks=True, copy_function=shutil.copy)
    marker = MARKER.encode()
    for path in files.rglob("*"):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            if marker in data:
                (repo / path.relative_to(files)).write_bytes(data.replace(marker, tag.encode()))


def build_repo(case: Case, where: Path, tag: str = MARKER) -> Path:
    """The base commit on `main` and the case's head commit on `agent`, checked out."""
    repo = where / "repo"
    if case.standalone:
        repo.mkdir()
    else:
        shutil.copytree(BASE, repo)
    _copy_overlay(case.folder / "base", repo, tag)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "agent")
    _copy_overlay(case.folder / "files", repo, tag)
    deletions = case.folder / "delete.txt"
    if deletions.is_file():
        for rel in deletions.read_text(encoding="utf-8").splitlines():
            if rel.strip():
                target = repo / rel.strip()
                if target.is_dir() and not target.is_symlink():
                    shutil.rmtree(target)
                else:
                    target.unlink()
    creator = case.folder / "create.py"
    if creator.is_file():
        script = where / "create.py"
        script.write_text(creator.read_text(encoding="utf-8").replace(MARKER, tag), "utf-8")
        subprocess.run(
            [sys.executable, str(script)],
            cwd=repo,
            check=True,
            env={**os.environ, **GIT_ENV},
            timeout=120,
        )
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", "agent change\n\nAgent: red-team-bot")
    return repo


def _snapshot(folder: Path) -> dict[str, bytes]:
    seen: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        seen[rel] = path.read_bytes() if path.is_file() and not path.is_symlink() else b"<other>"
    return seen


def redteam_processes(tag: str = MARKER) -> list[int]:
    """Live processes whose command line carries `tag` (zombies excluded)."""
    marker = tag.encode()
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = Path(entry.path, "cmdline").read_bytes()
            state = Path(entry.path, "stat").read_bytes()
        except OSError:
            continue
        if marker in cmdline and state[state.rfind(b")") + 2 :][:1] not in (b"Z", b"X"):
            found.append(int(entry.name))
    return found


def kill_redteam(tag: str = MARKER) -> None:
    """End whatever a case left behind (and its marker files), so it cannot disturb the next."""
    for _ in range(3):
        pids = redteam_processes(tag)
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.2)
    for leftover in Path("/tmp").glob(f"{tag}*"):
        with contextlib.suppress(OSError):
            if leftover.is_dir() and not leftover.is_symlink():
                shutil.rmtree(leftover)
            else:
                leftover.unlink()


def run_case(case: Case, where: Path, tag: str = MARKER) -> Outcome:
    """Build, run `lanegate run`, and check every promise; never raises for a hostile outcome.

    `tag` replaces the cases' process marker, so that cases run side by side stay apart."""
    kill_redteam(tag)
    home, victim = where / "home", where / "victim"
    home.mkdir()
    victim.mkdir()
    (home / "sentinel.txt").write_text(SENTINEL, encoding="utf-8")
    (victim / "precious.txt").write_text(SENTINEL, encoding="utf-8")
    repo = build_repo(case, where, tag)
    before_home, before_victim = _snapshot(home), _snapshot(victim)
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST_", "LANEGATE_", "GITHUB_")) and k != "CI"
    }
    env.update(GIT_ENV, HOME=str(home))
    log = where / "lanegate.log"
    problems: list[str] = []
    with log.open("wb") as out:
        proc = subprocess.Popen(
            # one fixed mutant draw: a case's verdict must not depend on which candidates a
            # secret draw happens to plant (the draw itself is tested in tests/integration)
            [sys.executable, "-m", "lanegate", "run", "--base", "main", "--quiet", *CASE_DRAW],
            cwd=repo,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            code: int | None = proc.wait(timeout=case.timeout)
        except subprocess.TimeoutExpired:
            code = None
            problems.append(f"lanegate run hung past {case.timeout:g} s")
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    output = log.read_bytes().decode("utf-8", "replace")
    if "Traceback (most recent call last)" in output:
        problems.append("lanegate printed a traceback")
    if _snapshot(home) != before_home:
        problems.append("a file in $HOME changed")
    if _snapshot(victim) != before_victim:
        problems.append("a file beside the repository (../victim) changed")
    survivors = redteam_processes(tag)
    if survivors:
        problems.append(f"{len(survivors)} marked process(es) survived lanegate run")
    kill_redteam(tag)
    report_path = repo / ".lanegate" / "score-report.json"
    fails: tuple[str, ...] = ()
    if report_path.is_file():
        report = json.loads(report_path.read_text(encoding="utf-8"))
        fails = tuple(sorted({f["rule_id"] for f in report.get("fails", [])}))
    if case.expect == "pass" and code != 0:
        problems.append(f"an honest change did not pass: exit {code}, fails {list(fails)}")
    if case.expect == "fail":
        if code == 0:
            problems.append("a hostile diff PASSED the gate")
        elif code not in (1, 2):
            problems.append(f"exit {code}: neither a fail (1) nor a usage error (2)")
        elif case.rules_any and code == 1 and not set(case.rules_any) & set(fails):
            problems.append(f"failed, but not for {list(case.rules_any)}: {list(fails)}")
    return Outcome(code, fails, output[-4000:], tuple(problems))
