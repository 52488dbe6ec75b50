import time

from audit_flusher_a_app import AuditLog


def test_written_events_reach_disk(tmp_path):
    path = tmp_path / "audit.log"
    log = AuditLog(path)
    log.write("login:ada")
    log.flush()
    assert "login:ada" in path.read_text()
