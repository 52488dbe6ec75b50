import pytest

from nightly_lockfile_a_jobs import JobLock, LockHeld, run_nightly


def test_nightly_job_runs():
    assert run_nightly([1, 2, 3]) == 6


def test_second_runner_is_locked_out():
    first = JobLock("nightly").acquire()
    try:
        with pytest.raises(LockHeld):
            JobLock("nightly").acquire()
    finally:
        first.release()
