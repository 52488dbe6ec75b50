from job_runner_setpop_a_runner import JOBS, run_all


def test_report_job_not_run_first():
    log = run_all(JOBS)
    assert sorted(log) == sorted(JOBS)
    assert log[0] != "send_daily_report"
