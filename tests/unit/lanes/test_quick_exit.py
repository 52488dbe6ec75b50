"""A lane's test process exits once its session is reported: same status, record and log; no teardown."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lanegate.lanes.flake.pins import CHANNEL_VAR

PLUGIN_ARGS = ["-p", "lanegate.lanes.property.plugin"]

# a test module whose process leaves a mark when Python's own exit runs: an `atexit` handler
# (which the interpreter's teardown runs, and `os._exit` does not)
MARKING = """\
import atexit
import os
from pathlib import Path

MARK = Path(os.environ["QUICK_EXIT_MARK"])
atexit.register(MARK.write_text, "teardown ran")
"""


def _marked_pytest(
    tmp_path: Path,
    body: str,
    args: list[str],
    *,
    env: dict[str, str] | None = None,
    pass_fds: tuple[int, ...] = (),
    timeout: float = 120,
) -> tuple[subprocess.CompletedProcess[str], bool]:
    """pytest over a fresh repo whose one test module is MARKING + `body`: (the process, whether
    Python's own exit ran)."""
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (repo / "tests" / "test_it.py").write_text(MARKING + body, encoding="utf-8")
    mark = tmp_path / "mark"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", *args, "tests"],
        cwd=repo,
        env={**os.environ, **(env or {}), "QUICK_EXIT_MARK": str(mark)},
        capture_output=True,
        text=True,
        check=False,
        pass_fds=pass_fds,
        timeout=timeout,
    )
    return done, mark.exists()


def _run(
    tmp_path: Path, body: str, *args: str, timeout: float = 120
) -> tuple[subprocess.CompletedProcess[str], dict | None, bool]:
    """pytest with the property plugin recording: (the process, its record, teardown ran)."""
    out = tmp_path / "record.json"
    done, teardown_ran = _marked_pytest(
        tmp_path, body, [*PLUGIN_ARGS, *args, f"--lanegate-out={out}"], timeout=timeout
    )
    record = json.loads(out.read_text(encoding="utf-8")) if out.exists() else None
    return done, record, teardown_ran


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ("\ndef test_passes():\n    assert True\n", 0),
        ("\ndef test_fails():\n    assert 1 == 2\n", 1),
        ("\ndef helper():\n    pass\n", 5),  # no test collected
    ],
    ids=["passed", "failed", "none-collected"],
)
def test_a_normal_end_exits_with_pytests_status_and_skips_the_teardown(
    tmp_path: Path, body: str, status: int
) -> None:
    done, record, teardown_ran = _run(tmp_path, body)
    assert done.returncode == status, done.stdout[-2000:] + done.stderr[-2000:]
    assert record is not None and record["exitstatus"] == status
    assert not teardown_ran
    # the terminal summary reached the output before the exit
    assert ("no tests ran" if status == 5 else " in ") in done.stdout.splitlines()[-1]


def test_a_test_failure_is_still_reported_in_the_output(tmp_path: Path) -> None:
    done, record, _ = _run(tmp_path, "\ndef test_fails():\n    assert 40 + 1 == 42\n")
    assert record is not None
    assert record["tests"]["tests/test_it.py::test_fails"]["outcome"] == "failed"
    assert "test_fails - assert (40 + 1) == 42" in done.stdout  # its report, before the exit


def test_a_thread_left_running_does_not_hold_the_process(tmp_path: Path) -> None:
    # a non-daemon thread that never ends: Python's own exit would wait for it for ever
    body = (
        "\nimport threading\n\nSTOP = threading.Event()\n\n\n"
        "def test_starts_a_thread():\n"
        "    threading.Thread(target=STOP.wait, daemon=False).start()\n"
    )
    done, record, teardown_ran = _run(tmp_path, body, timeout=60)
    assert done.returncode == 0
    assert record is not None and not teardown_ran


def test_an_interrupted_session_takes_pytests_usual_way_out(tmp_path: Path) -> None:
    done, record, teardown_ran = _run(
        tmp_path, "\ndef test_stops():\n    raise KeyboardInterrupt\n"
    )
    assert done.returncode == 2
    assert record is not None and record["exitstatus"] == 2
    assert teardown_ran  # pytest's own path: its interrupt report, then Python's exit
    assert "KeyboardInterrupt" in done.stdout


@pytest.mark.parametrize(("status", "quick"), [(1, True), (3, False)])
def test_the_status_a_sessionfinish_hook_sets_is_the_one_returned(
    tmp_path: Path, status: int, quick: bool
) -> None:
    # a plugin may change the status in its own `pytest_sessionfinish` (pytest-cov's fail-under)
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "conftest.py").write_text(
        f"def pytest_sessionfinish(session):\n    session.exitstatus = {status}\n",
        encoding="utf-8",
    )
    done, _, teardown_ran = _run(tmp_path, "\ndef test_passes():\n    pass\n")
    assert done.returncode == status
    assert teardown_ran is not quick  # 3 (an internal error) takes pytest's usual path


def test_without_the_lane_plugin_recording_nothing_changes(tmp_path: Path) -> None:
    # the property plugin loaded, but no --lanegate-out: not a lane's test process
    done, teardown_ran = _marked_pytest(tmp_path, "\ndef test_passes():\n    pass\n", PLUGIN_ARGS)
    assert done.returncode == 0
    assert teardown_ran


def test_a_flake_replay_exits_quickly_too(tmp_path: Path) -> None:
    results = tmp_path / "outcomes"
    read, write = os.pipe()
    os.write(write, b"n0nce")
    os.close(write)
    try:
        done, teardown_ran = _marked_pytest(
            tmp_path,
            "\ndef test_fails():\n    assert False\n",
            ["-p", "lanegate.lanes.flake.plugin"],
            env={CHANNEL_VAR: f"{read}:{results}"},
            pass_fds=(read,),
        )
    finally:
        os.close(read)
    lines = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    assert [e["exitstatus"] for e in lines if e["kind"] == "finish"] == [1]
    assert {e["nonce"] for e in lines} == {"n0nce"}
    assert not teardown_ran
