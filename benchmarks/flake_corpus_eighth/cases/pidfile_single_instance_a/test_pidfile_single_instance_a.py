import pidfile_single_instance_a_sched as sched


def test_scheduler_runs_once(tmp_path):
    pidfile = "/tmp/pidfile_single_instance_a.pid"
    assert sched.run_once(pidfile, ["vacuum", "rollup", "mail"]) == ["vacuum", "rollup", "mail"]
