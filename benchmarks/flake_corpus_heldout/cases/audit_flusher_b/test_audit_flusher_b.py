import time

from audit_flusher_b_app import AuditLog


def test_written_events_reach_disk(tmp_path):
    path = tmp_path / "audit.log"
    log = AuditLog(path)
    log.write("login:ada")
    time.sleep(0.025)
    assert "login:ada" in path.read_text()
