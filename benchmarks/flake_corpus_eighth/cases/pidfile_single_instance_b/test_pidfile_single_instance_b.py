import pidfile_single_instance_b_sched as sched


def test_scheduler_runs_once(tmp_path):
    pidfile = tmp_path / "pidfile_single_instance_b.pid"
    assert sched.run_once(pidfile, ["vacuum", "rollup", "mail"]) == ["vacuum", "rollup", "mail"]
