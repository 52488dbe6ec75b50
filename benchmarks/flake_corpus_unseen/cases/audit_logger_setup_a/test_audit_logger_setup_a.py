import logging

import pytest

import audit_logger_setup_a_audit as audit_mod


@pytest.fixture
def audit():
    handler = audit_mod.setup_audit_log()
    yield handler
    audit_mod.teardown_audit_log()


def test_login_is_audited(audit):
    audit_mod.record_login("alice")
    assert audit.lines == ["INFO login user=alice ip=10.0.0.1"]


def test_audit_lines_can_be_mirrored():
    mirror = audit_mod.ListHandler()  # e.g. a second sink for the compliance archive
    audit_mod.logger.addHandler(mirror)
    audit_mod.logger.setLevel(logging.INFO)
    audit_mod.record_login("bob")
    assert mirror.lines == ["login user=bob ip=10.0.0.1"]
