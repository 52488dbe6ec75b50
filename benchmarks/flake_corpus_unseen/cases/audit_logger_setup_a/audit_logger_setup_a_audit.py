"""Audit trail for the admin backend (one line per security-relevant action)."""
import logging

logger = logging.getLogger("audit_logger_setup_a.audit")


class ListHandler(logging.Handler):
    """Keeps formatted audit lines in memory; the real app ships them to the SIEM in batches."""

    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append(self.format(record))


def setup_audit_log(handler=None):
    """Attach the audit handler once: repeated app start-ups must not duplicate audit lines."""
    existing = [h for h in logger.handlers if isinstance(h, ListHandler)]
    if existing:
        return existing[0]
    handler = handler or ListHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    return handler


def teardown_audit_log():
    for h in list(logger.handlers):
        if isinstance(h, ListHandler):
            logger.removeHandler(h)


def record_login(user, ip="10.0.0.1"):
    logger.info("login user=%s ip=%s", user, ip)
