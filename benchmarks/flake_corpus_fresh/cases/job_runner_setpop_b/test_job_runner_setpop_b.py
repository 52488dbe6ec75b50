from job_runner_setpop_b_runner import JOBS, run_all


def test_report_job_not_run_first():
    log = run_all(JOBS)
    assert sorted(log) == sorted(JOBS)
    assert log[0] != "send_daily_report"
