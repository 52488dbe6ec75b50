import datetime

from log_rollover_a_applog import DailyLog


def test_log_file_named_after_today(tmp_path):
    log = DailyLog(tmp_path)
    for i in range(20000):
        log.write(f"request {i} served")
    log.close()
    expected = tmp_path / f"app-{datetime.date.today():%Y%m%d}.log"
    assert expected.exists()
    assert len(expected.read_text().splitlines()) == 20000
