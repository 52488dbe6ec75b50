"""A standby test process: started before its arguments, in its own sandbox, the same run as a cold one.

Real pytest in the real sandbox throughout: the standby's record must equal a cold run's, its tests
must see what a cold run's see (fd 0 at /dev/null, `python -m pytest`'s argv, no pytest warning
about modules imported early), a standby the lane never uses must run nothing, and a head test in
one standby must not reach the scratch folder (the record) of another.
"""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from lanegate.errors import RunnerError
from lanegate.lanes.property.baseline import run_baseline
from lanegate.lanes.property.standby import encode_arguments, start_standby
from lanegate.policy import load_policy
from lanegate.sandbox import boot, open_sandbox

PROBE = """
import gc
import os
import stat
import sys


def test_stdin_is_dev_null():
    assert stat.S_ISCHR(os.fstat(0).st_mode)
    assert os.read(0, 1) == b""


def test_argv_is_pytests_main():
    assert sys.argv[0].endswith(os.path.join("pytest", "__main__.py")), sys.argv


def test_the_cycle_collector_runs():
    assert gc.isenabled()


def test_passes():
    assert [1, 2] == [1, 2]


def test_fails():
    assert {"a": 1} == {"a": 2}
"""

# pytest turns every warning into an error here: a module imported before pytest that it wanted to
# rewrite would fail the run at start-up (PytestAssertRewriteWarning)
STRICT_INI = "[pytest]\nfilterwarnings = error\n"


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "tests" / "test_probe.py").write_text(PROBE, encoding="utf-8")
    (repo / "pytest.ini").write_text(STRICT_INI, encoding="utf-8")
    return repo


def _outcomes(tests: dict[str, dict[str, object]]) -> dict[str, object]:
    return {node: entry["outcome"] for node, entry in tests.items()}


def test_a_standby_run_records_what_a_cold_run_records(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    policy = load_policy(repo)
    sandbox = open_sandbox(repo)
    cold = run_baseline(repo, policy, [], selection=["tests"], sandbox=sandbox)
    standby = start_standby(repo, sandbox)
    assert standby is not None
    try:
        warm = run_baseline(repo, policy, [], selection=["tests"], sandbox=sandbox, standby=standby)
    finally:
        standby.close()
    node = "tests/test_probe.py::"
    assert _outcomes(warm.tests) == _outcomes(cold.tests)
    assert _outcomes(warm.tests) == {
        node + "test_stdin_is_dev_null": "passed",
        node + "test_argv_is_pytests_main": "passed",
        node + "test_the_cycle_collector_runs": "passed",
        node + "test_passes": "passed",
        node + "test_fails": "failed",
    }
    assert warm.exit_code == cold.exit_code == 1
    assert warm.collection == cold.collection
    assert warm.command == cold.command
    # its seconds count from the process's start: never less than the run itself
    assert warm.seconds >= warm.overhead > 0


def test_a_standby_serves_one_run_and_refuses_another_tree(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    policy = load_policy(repo)
    sandbox = open_sandbox(repo)
    standby = start_standby(repo, sandbox)
    assert standby is not None
    other = tmp_path / "other.py"
    other.write_text("", encoding="utf-8")
    try:
        with pytest.raises(RunnerError, match="another tree"):
            run_baseline(
                repo,
                policy,
                [],
                selection=["tests"],
                sandbox=sandbox,
                standby=standby,
                overlays={repo / "tests" / "test_probe.py": other},
            )
        run_baseline(repo, policy, [], selection=["tests"], sandbox=sandbox, standby=standby)
        with pytest.raises(RunnerError, match="one run only"):
            run_baseline(repo, policy, [], selection=["tests"], sandbox=sandbox, standby=standby)
    finally:
        standby.close()


def test_an_unused_standby_is_killed_and_its_scratch_removed(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    standby = start_standby(repo, open_sandbox(repo))
    assert standby is not None
    scratch = standby.scratch
    assert standby.proc.poll() is None  # waiting for its arguments
    standby.close()
    assert standby.proc.returncode == -signal.SIGKILL
    assert not scratch.exists()


def test_a_standby_whose_message_is_cut_short_runs_nothing(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    standby = start_standby(repo, open_sandbox(repo))
    assert standby is not None
    try:
        assert standby.proc.stdin is not None
        # the arguments without their end: the lane went away mid-message
        standby.proc.stdin.write(encode_arguments(["tests"])[:-1])
        standby.proc.stdin.close()
        assert standby.proc.wait(timeout=60) == 2
        assert not (standby.scratch / "baseline.json").exists()
    finally:
        standby.close()


def test_a_head_test_cannot_reach_another_standbys_record(tmp_path: Path) -> None:
    """The head's and the base suite's standbys run side by side: a test in one writing to the
    other's scratch folder writes into its own sandbox's private /tmp, never the other's record."""
    repo = _repo(tmp_path)
    policy = load_policy(repo)
    sandbox = open_sandbox(repo)
    victim = start_standby(repo, sandbox)
    attacker = start_standby(repo, sandbox)
    assert victim is not None and attacker is not None
    target = victim.scratch / "baseline.json"
    (repo / "tests" / "test_attack.py").write_text(
        "import json\n\n\ndef test_forge():\n"
        f"    with open({str(target)!r}, 'w') as out:\n"
        "        json.dump({'tests': {}, 'forged': True}, out)\n",
        encoding="utf-8",
    )
    try:
        run_baseline(
            repo,
            policy,
            [],
            selection=["tests/test_attack.py"],
            sandbox=sandbox,
            standby=attacker,
        )
        assert not target.exists()
        honest = run_baseline(
            repo, policy, [], selection=["tests/test_probe.py"], sandbox=sandbox, standby=victim
        )
    finally:
        victim.close()
        attacker.close()
    assert "forged" not in honest.record
    assert len(honest.tests) == 5


def test_boot_reads_the_standby_message_exactly(tmp_path: Path) -> None:
    """`boot.py --standby` appends exactly the arguments sent, awkward bytes included."""
    script = tmp_path / "show.py"
    script.write_text("import sys\nprint(repr(sys.argv[1:]))\n", encoding="utf-8")
    pkg = tmp_path / "showpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "__main__.py").write_text(script.read_text(encoding="utf-8"), encoding="utf-8")
    sent = ["", "-x", "a b", "line\nbreak", "\n", "é"]
    done = subprocess.run(
        [sys.executable, boot.__file__, str(tmp_path), boot.STANDBY, "json", "-m", "showpkg", "f"],
        input=encode_arguments(sent),
        capture_output=True,
        cwd=tmp_path,
        check=True,
        timeout=60,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert done.stdout.decode().strip() == repr(["f", *sent])


@pytest.mark.parametrize("was_on", [True, False])
def test_preload_pauses_the_collector_and_puts_it_back_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, was_on: bool
) -> None:
    """During the imports the collector is off; after them, and after an import that fails, it is
    as it was before."""
    (tmp_path / "seen_collector.py").write_text(
        "import gc\nSTATE = gc.isenabled()\n", encoding="utf-8"
    )
    (tmp_path / "broken_module.py").write_text("raise ValueError('no')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    (gc.enable if was_on else gc.disable)()
    try:
        boot.preload(["seen_collector"])
        assert sys.modules["seen_collector"].STATE is False
        assert gc.isenabled() is was_on
        with pytest.raises(ValueError, match="no"):
            boot.preload(["broken_module"])
        assert gc.isenabled() is was_on
    finally:
        gc.enable()
        for name in ("seen_collector", "broken_module"):
            sys.modules.pop(name, None)


def test_closing_twice_is_harmless(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    standby = start_standby(repo, open_sandbox(repo))
    assert standby is not None
    standby.close()
    standby.close()
    assert standby.proc.returncode == -signal.SIGKILL


def test_a_standby_that_never_reads_cannot_block_the_lane(tmp_path: Path) -> None:
    """Arguments larger than a pipe holds, sent to a standby that is stopped: `begin` returns at
    once (the message goes out on a thread of its own), and killing the standby ends the write."""
    repo = _repo(tmp_path)
    standby = start_standby(repo, open_sandbox(repo))
    assert standby is not None
    os.killpg(standby.proc.pid, signal.SIGSTOP)
    try:
        proc = standby.begin(["x" * 4096] * 64)  # 256 KiB: four pipe buffers
        assert proc is standby.proc
        assert proc.poll() is None
    finally:
        standby.close()
    assert standby.proc.returncode == -signal.SIGKILL
