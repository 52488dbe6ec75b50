from datetime import datetime

from audit_log_line_b_app import audit_line, pseudonym


def test_log_line_has_current_time():
    line = audit_line("ada", "login")
    assert line == f"{datetime.now():%H:%M:%S} {pseudonym('ada')} login"
