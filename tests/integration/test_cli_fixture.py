"""`lanegate fixture` and `lanegate lock` on real git repositories, with real case processes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable

import pytest

from lanegate.cli.main import main
from lanegate.ledgers.load import load_file
from lanegate.ledgers.models import CaseStatus, FileStatus, FixtureLedger
from tests.gitrepo import Repo

LOCK = "tests/fixtures.lock.json"
FIX = "tests/fixtures"

CASE_FUNCTIONS = """
import os, time

def upper(data: bytes) -> bytes:
    print("stray print goes to stderr, not into the result")
    return data.upper()

def reverse(data: bytes) -> bytes:
    return data[::-1]

def lf(data: bytes) -> bytes:
    return data.replace(b"\\r\\n", b"\\n")

def sneaky_write(data: bytes) -> bytes:
    try:  # swallowing the error must not help: the audit hook ends the process
        with open(os.path.join("tests", "fixtures", "out.txt"), "w") as handle:
            handle.write("rewritten")
    except Exception:
        pass
    return data.upper()

def text(data: bytes) -> str:
    return data.decode()

def hang(data: bytes) -> bytes:
    time.sleep(60)
    return data
"""


def _policy(cases: list[str], extra: str = "") -> str:
    body = ",\n  ".join(cases)
    return f"[fixtures]\ncase_timeout_seconds = 20\n{extra}cases = [\n  {body}\n]\n"


UPPER = '{id = "upper", input = "in.txt", expected = "out.txt", callable = "casefns:upper"}'


def _lanegate(*args: str) -> int:
    return main(list(args))


def _setup(
    make_repo: Callable[[str], Repo],
    files: dict[str, bytes] | None = None,
    cases: list[str] | None = None,
    extra: str = "",
    lock: bool = True,
) -> Repo:
    repo = make_repo("repo")
    default = {"in.txt": b"hello fixture\n", "out.txt": b"HELLO FIXTURE\n"}
    for name, data in (default if files is None else files).items():
        repo.write(f"{FIX}/{name}", data)
    repo.write("casefns.py", CASE_FUNCTIONS)
    repo.write("lanegate.toml", _policy([UPPER] if cases is None else cases, extra))
    if lock:
        assert _lanegate("lock", "--repo", str(repo.path)) == 0
    repo.commit("base")
    repo.branch("pr")
    return repo


def _run(repo: Repo, *extra: str) -> tuple[int, FixtureLedger, str]:
    out = repo.path.parent / "out"
    code = _lanegate(
        "fixture", "--repo", str(repo.path), "--base", "main", "--out", str(out), *extra
    )
    ledger = load_file(FixtureLedger, "fixture", out / "fixture.json").value
    return code, ledger, (out / "fixture-report.txt").read_text(encoding="utf-8")


def _files(ledger: FixtureLedger) -> dict[str, FileStatus]:
    return {f.path: f.status for f in ledger.files}


def test_untouched_fixtures_and_matching_case_pass(make_repo: Callable[[str], Repo]) -> None:
    repo = _setup(make_repo)
    repo.write("src_change.py", "x = 1\n")
    repo.commit("agent change")
    code, ledger, report = _run(repo)
    assert code == 0, report
    assert set(_files(ledger).values()) == {FileStatus.MATCH}
    assert [(c.id, c.status) for c in ledger.cases] == [("upper", CaseStatus.MATCH)]
    case = ledger.cases[0]
    assert case.actual_digest == case.expected_digest is not None
    assert not ledger.lockfile.changed and ledger.writer == "fixture-runner"
    assert ledger.head_commit == repo.rev("HEAD") and ledger.base_commit == repo.rev("main")


def test_agent_rewrites_expected_file_only_is_drift(make_repo: Callable[[str], Repo]) -> None:
    repo = _setup(make_repo)
    repo.write(f"{FIX}/out.txt", b"HELLO FIXTURE, REWRITTEN\n")
    repo.commit("agent makes the test pass")
    code, ledger, report = _run(repo)
    assert code == 1
    assert _files(ledger)[f"{FIX}/out.txt"] is FileStatus.DRIFT
    assert not ledger.lockfile.changed
    assert ledger.cases[0].status is CaseStatus.DRIFT
    assert "expected tests/fixtures/out.txt moved since the lockfile" in ledger.cases[0].detail
    assert "the replay still produces the locked expected bytes" in ledger.cases[0].detail
    assert "drift tests/fixtures/out.txt: merge base 14 bytes, head 25 bytes" in report
    # the reviewer sees what moved: a unified diff from the merge base to head
    assert "+HELLO FIXTURE, REWRITTEN" in report and "-HELLO FIXTURE" in report


def test_agent_rewrites_expected_file_and_lockfile(make_repo: Callable[[str], Repo]) -> None:
    repo = _setup(make_repo)
    repo.write(f"{FIX}/out.txt", b"WHATEVER THE CODE SAYS\n")
    assert _lanegate("lock", "--repo", str(repo.path)) == 0
    repo.commit("agent relocks")
    code, ledger, report = _run(repo)
    assert code == 1
    assert ledger.lockfile.changed
    assert ledger.lockfile.base_digest != ledger.lockfile.head_digest
    # judged against the merge base's lockfile, never the one the agent wrote
    assert _files(ledger)[f"{FIX}/out.txt"] is FileStatus.DRIFT
    assert "fixture writer is the agent" in report
    # the same diff by a human is a reviewed lockfile update: judged against the head lockfile
    code, ledger, report = _run(repo, "--authorship", "human")
    assert ledger.lockfile.changed
    assert set(_files(ledger).values()) == {FileStatus.MATCH}
    assert ledger.cases[0].status is CaseStatus.ORACLE_MISMATCH
    assert code == 1


def test_unlocked_and_deleted_fixtures(make_repo: Callable[[str], Repo]) -> None:
    repo = _setup(make_repo, files={"in.txt": b"a\n", "out.txt": b"A\n", "extra.txt": b"e"})
    repo.write(f"{FIX}/new.txt", b"added by the agent")
    repo.remove(f"{FIX}/extra.txt")
    repo.commit("agent adds and deletes")
    code, ledger, report = _run(repo)
    assert code == 1
    files = _files(ledger)
    assert files[f"{FIX}/new.txt"] is FileStatus.UNLOCKED
    assert files[f"{FIX}/extra.txt"] is FileStatus.MISSING
    assert ledger.cases[0].status is CaseStatus.MATCH
    assert re.search(r"^tests/fixtures/new\.txt +unlocked +- +[0-9a-f]{12}$", report, re.M)


def test_case_whose_expected_file_is_deleted_is_missing(make_repo: Callable[[str], Repo]) -> None:
    repo = _setup(make_repo)
    repo.remove(f"{FIX}/out.txt")
    repo.commit("agent deletes the oracle")
    code, ledger, _ = _run(repo)
    assert code == 1
    assert ledger.cases[0].status is CaseStatus.MISSING
    assert ledger.cases[0].expected_digest is None
    assert _files(ledger)[f"{FIX}/out.txt"] is FileStatus.MISSING


def test_callable_that_writes_into_the_fixture_dir_is_an_error(
    make_repo: Callable[[str], Repo],
) -> None:
    cases = [
        '{id = "sneaky", input = "in.txt", expected = "out.txt", callable = "casefns:sneaky_write"}',
        UPPER,
    ]
    repo = _setup(make_repo, cases=cases)
    before = (repo.path / FIX / "out.txt").read_bytes()
    code, ledger, _ = _run(repo)
    assert code == 1
    sneaky, upper = ledger.cases
    assert sneaky.status is CaseStatus.ERROR and sneaky.actual_digest is None
    assert "write attempt refused" in sneaky.detail and "tests/fixtures/out.txt" in sneaky.detail
    assert upper.status is CaseStatus.MATCH  # the next case still runs, on intact bytes
    assert (repo.path / FIX / "out.txt").read_bytes() == before


def test_command_that_writes_into_the_read_only_copy_is_an_error(
    make_repo: Callable[[str], Repo],
) -> None:
    # the sandbox mounts the copy read-only (root or not): the write is refused, the command fails
    writer = (
        '{id = "cmd", input = "in.txt", expected = "out.txt", command = '
        '["sh", "-ec", "echo x >> \\"$LANEGATE_FIXTURE_DIR/out.txt\\"; tr a-z A-Z"]}'
    )
    upper_cmd = (
        '{id = "tr", input = "in.txt", expected = "out.txt", command = ["tr", "a-z", "A-Z"]}'
    )
    repo = _setup(make_repo, cases=[writer, upper_cmd])
    code, ledger, _ = _run(repo)
    assert code == 1
    first, second = ledger.cases
    assert first.status is CaseStatus.ERROR
    assert "Permission denied" in first.detail or "Read-only" in first.detail, first.detail
    assert second.status is CaseStatus.MATCH


def test_case_that_hangs_times_out(make_repo: Callable[[str], Repo]) -> None:
    hang = '{id = "hang", input = "in.txt", expected = "out.txt", callable = "casefns:hang"}'
    repo = _setup(make_repo, cases=[hang])
    toml = (repo.path / "lanegate.toml").read_text().replace("= 20", "= 0.5")
    repo.write("lanegate.toml", toml)
    repo.commit("short timeout")
    code, ledger, _ = _run(repo)
    assert code == 1
    assert ledger.cases[0].status is CaseStatus.TIMEOUT
    assert ledger.cases[0].actual_digest is None
    assert "process group was killed" in ledger.cases[0].detail


def test_binary_fixtures(make_repo: Callable[[str], Repo]) -> None:
    data = bytes(range(256)) * 4
    cases = [
        '{id = "rev", input = "blob.bin", expected = "blob.rev", callable = "casefns:reverse"}',
        '{id = "bad", input = "blob.bin", expected = "blob.bin", callable = "casefns:reverse"}',
    ]
    repo = _setup(make_repo, files={"blob.bin": data, "blob.rev": data[::-1]}, cases=cases)
    code, ledger, report = _run(repo)
    rev, bad = ledger.cases
    assert rev.status is CaseStatus.MATCH
    assert bad.status is CaseStatus.ORACLE_MISMATCH
    assert bad.actual_digest == rev.expected_digest
    assert "--- expected/" not in report  # no text diff of binary bytes
    assert code == 1


def test_crlf_and_lf_have_distinct_digests_and_are_reported(
    make_repo: Callable[[str], Repo],
) -> None:
    cases = ['{id = "eol", input = "crlf.txt", expected = "crlf.txt", callable = "casefns:lf"}']
    repo = _setup(make_repo, files={"crlf.txt": b"a\r\nb\r\n", "lf.txt": b"a\nb\n"}, cases=cases)
    locked = json.loads((repo.path / LOCK).read_text())["files"]
    assert locked[f"{FIX}/crlf.txt"] != locked[f"{FIX}/lf.txt"]
    code, ledger, report = _run(repo)
    assert code == 1
    case = ledger.cases[0]
    assert case.status is CaseStatus.ORACLE_MISMATCH
    assert "only line endings differ (CRLF vs LF)" in case.detail
    assert "-a\\r" in report and "+a" in report


@pytest.mark.parametrize(("side", "authorship"), [("merge base", "agent"), ("head", "human")])
def test_malformed_digest_in_trusted_lockfile_is_exit_2_without_traceback(
    make_repo: Callable[[str], Repo], side: str, authorship: str
) -> None:
    repo = _setup(make_repo, lock=False)
    if side == "merge base":
        repo.checkout("main")
    bad = {"schema_version": 1, "files": {f"{FIX}/in.txt": "sha256:not-hex"}}
    (repo.path / LOCK).write_text(json.dumps(bad))
    repo.commit("broken lockfile")
    if side == "merge base":
        repo.branch("pr2")
        repo.write("x.py", "x = 1\n")
        repo.commit("agent change")
    command = ["fixture", "--repo", str(repo.path), "--base", "main", "--authorship", authorship]
    done = subprocess.run(
        [sys.executable, "-m", "lanegate", *command],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert f"{LOCK} at {side} " in lines[0] and f"files['{FIX}/in.txt']" in lines[0]
    assert "'sha256:not-hex' is not a digest" in lines[0]


def test_agent_commits_a_broken_lockfile(make_repo: Callable[[str], Repo]) -> None:
    repo = _setup(make_repo)
    (repo.path / LOCK).write_text('{"schema_version": 1, "files": {"tests/fixtures/in.txt": "x"}}')
    repo.commit("agent breaks the lockfile")
    code, ledger, report = _run(repo)
    assert code == 1  # a ledger that fails, not a usage error: the agent wrote the lockfile
    assert ledger.lockfile.changed
    assert set(_files(ledger).values()) == {FileStatus.MATCH}  # still judged by the merge base's
    assert "the agent's lockfile is not valid either" in report


def test_base_without_lockfile_leaves_everything_unlocked(make_repo: Callable[[str], Repo]) -> None:
    repo = _setup(make_repo, lock=False)
    repo.write("x.py", "y = 2\n")
    repo.commit("no lockfile anywhere")
    code, ledger, report = _run(repo)
    assert code == 1
    assert ledger.lockfile.base_digest is None and not ledger.lockfile.changed
    assert set(_files(ledger).values()) == {FileStatus.UNLOCKED}
    assert f"{LOCK} does not exist at merge base" in report
    assert "every fixture is unlocked" in report


def test_symlink_in_fixture_dir_is_refused(make_repo: Callable[[str], Repo]) -> None:
    repo = _setup(make_repo)
    (repo.path / FIX / "link").symlink_to("/etc/hostname")
    repo.commit("agent adds a link")
    code = _lanegate("fixture", "--repo", str(repo.path), "--base", "main")
    assert code == 2
    assert _lanegate("lock", "--repo", str(repo.path)) == 2


def test_odd_file_names(make_repo: Callable[[str], Repo]) -> None:
    odd = {
        "sp ace.txt": b"1",
        "ünï.txt": b"2",
        "new\nline": b"3",
        "sub/dir/#hash": b"",
        "in.txt": b"a\n",
        "out.txt": b"A\n",
    }
    repo = _setup(make_repo, files=odd)
    locked = json.loads((repo.path / LOCK).read_bytes())["files"]
    assert sorted(locked) == sorted(f"{FIX}/{name}" for name in odd)
    code, ledger, report = _run(repo)
    assert code == 0, report
    assert set(_files(ledger).values()) == {FileStatus.MATCH}
    assert "new\\nline" in report


def test_lock_is_stable_and_rewrites_nothing(
    make_repo: Callable[[str], Repo], capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _setup(make_repo)
    lock = repo.path / LOCK
    first = lock.read_bytes()
    stat = lock.stat()
    assert _lanegate("lock", "--repo", str(repo.path)) == 0
    assert _lanegate("lock", "--repo", str(repo.path), "--check") == 0
    assert lock.read_bytes() == first
    after = lock.stat()
    assert (after.st_ino, after.st_mtime_ns) == (stat.st_ino, stat.st_mtime_ns)
    printed = capsys.readouterr().out
    assert "nothing written" in printed and "[[fixtures.cases]]" not in printed  # cases declared
    repo.write(f"{FIX}/in.txt", b"changed\n")
    assert _lanegate("lock", "--repo", str(repo.path), "--check") == 1
    assert lock.read_bytes() == first  # --check never writes
    assert "changed  tests/fixtures/in.txt" in capsys.readouterr().out
    assert _lanegate("lock", "--repo", str(repo.path)) == 0
    assert lock.read_bytes() != first
    assert _lanegate("lock", "--repo", str(repo.path), "--check") == 0


def test_no_fixture_dir_at_all(make_repo: Callable[[str], Repo]) -> None:
    repo = make_repo("repo")
    repo.write("a.py", "a = 1\n")
    repo.commit("base")
    repo.branch("pr")
    code, ledger, report = _run(repo)
    assert code == 1
    assert ledger.no_fixtures and ledger.files == () and ledger.cases == ()
    assert "no fixtures" in report
    repo.write("lanegate.toml", "[fixtures]\nallow_none = true\n")
    repo.commit("allow none")
    code, ledger, _ = _run(repo)
    assert code == 0 and ledger.no_fixtures


def test_uncommitted_fixture_change_is_refused(make_repo: Callable[[str], Repo]) -> None:
    repo = _setup(make_repo)
    repo.write(f"{FIX}/in.txt", b"dirty\n")
    assert _lanegate("fixture", "--repo", str(repo.path), "--base", "main") == 2


def test_broken_cases_are_errors_with_a_reason(make_repo: Callable[[str], Repo]) -> None:
    cases = [
        '{id = "str", input = "in.txt", expected = "out.txt", callable = "casefns:text"}',
        '{id = "noimport", input = "in.txt", expected = "out.txt", callable = "nosuch.mod:f"}',
        '{id = "nocmd", input = "in.txt", expected = "out.txt", command = ["no-such-tool-xyz"]}',
        '{id = "exit3", input = "in.txt", expected = "out.txt", command = ["sh", "-c", "echo boom >&2; exit 3"]}',
    ]
    repo = _setup(make_repo, cases=cases)
    code, ledger, _ = _run(repo)
    assert code == 1
    details = {c.id: (c.status, c.detail) for c in ledger.cases}
    assert all(status is CaseStatus.ERROR for status, _ in details.values())
    assert "returned str, expected bytes" in details["str"][1]
    assert "ModuleNotFoundError" in details["noimport"][1]
    assert "cannot start 'no-such-tool-xyz'" in details["nocmd"][1]
    assert details["exit3"][1] == "exit 3: boom"


def test_run_lane_reports_progress_and_outcome(make_repo: Callable[[str], Repo]) -> None:
    from lanegate.lanes.context import LaneContext, ProgressEvent
    from lanegate.lanes.fixture import run_lane
    from lanegate.policy import load_policy

    repo = _setup(make_repo)
    events: list[ProgressEvent] = []
    ctx = LaneContext(
        repo=repo.path,
        base="main",
        policy=load_policy(repo.path),
        out_dir=repo.path.parent / "lane-out",
        progress=events.append,
    )
    outcome = run_lane(ctx)
    assert outcome.lane == "fixture" and outcome.would_pass and outcome.problems == ()
    assert outcome.ledger_path == ctx.out_dir / "fixture.json"
    assert {e.unit for e in events} == {"files", "cases"}
    assert events[-1].done == events[-1].total == 1


def test_lock_refuses_a_malformed_lockfile_on_disk(make_repo: Callable[[str], Repo]) -> None:
    repo = _setup(make_repo)
    (repo.path / LOCK).write_text(
        '{"schema_version": 1, "files": {"tests/fixtures/in.txt": "md5:x"}}'
    )
    assert _lanegate("lock", "--repo", str(repo.path), "--check") == 2
    assert _lanegate("lock", "--repo", str(repo.path)) == 2


def _alive(pid: int) -> bool:
    """True while `pid` runs; a zombie waiting for a reaper counts as gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            state = next(line for line in status if line.startswith("State:"))
    except (FileNotFoundError, ProcessLookupError):
        return False
    return "Z" not in state.split()[1]


def _marked(marker: bytes) -> list[int]:
    """Live processes (zombies aside) whose command line holds `marker`."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = open(f"/proc/{entry.name}/cmdline", "rb").read()
        except OSError:
            continue
        if marker in cmdline and _alive(int(entry.name)):
            found.append(int(entry.name))
    return found


def test_timeout_and_exit_kill_the_whole_process_group(make_repo: Callable[[str], Repo]) -> None:
    # the children live in the sandbox's own PID namespace: found from outside by a marker argument
    marker = f"lanegate-case-child-{os.getpid()}"
    sleeper = f"python3 -c 'import time; time.sleep(30)' {marker}"
    hang = (
        '{id = "hang", input = "in.txt", expected = "out.txt", command = '
        f'["sh", "-c", "{sleeper}-hang & wait"]}}'
    )
    leaves = (
        '{id = "leaves", input = "in.txt", expected = "out.txt", command = '
        f'["sh", "-c", "{sleeper}-leaves & tr a-z A-Z"]}}'
    )
    repo = _setup(make_repo, cases=[hang, leaves], extra="")
    toml = (repo.path / "lanegate.toml").read_text().replace("= 20", "= 1")
    repo.write("lanegate.toml", toml)
    repo.commit("short timeout")
    code, ledger, _ = _run(repo)
    assert code == 1
    assert [c.status for c in ledger.cases] == [CaseStatus.TIMEOUT, CaseStatus.MATCH]
    # "hang" timing out shows its child ran (wait waited for it); now none may be left anywhere
    deadline = time.monotonic() + 10
    while _marked(marker.encode()) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _marked(marker.encode()), "a case's background child survived the lane"
