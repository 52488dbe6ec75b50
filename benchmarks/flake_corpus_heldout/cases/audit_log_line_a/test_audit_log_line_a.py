from datetime import datetime

from audit_log_line_a_app import audit_line, pseudonym


def test_log_line_has_current_time():
    now = datetime.now()
    line = audit_line("ada", "login", now=now)
    assert line == f"{now:%H:%M:%S} {pseudonym('ada')} login"
