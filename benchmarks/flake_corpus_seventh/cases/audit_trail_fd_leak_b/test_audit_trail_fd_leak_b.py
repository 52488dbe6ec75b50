import pytest

import audit_trail_fd_leak_b_audit as audit


def test_export_releases_audit_files(tmp_path):
    trail = tmp_path / "export.jsonl"
    trail.write_text('{"event": "login"}\n{"event": "refund"}\n')
    audit.export_events(trail, tmp_path / "events.txt")
    assert (tmp_path / "events.txt").read_text() == "login\nrefund\n"
    assert audit.open_files(".jsonl") == []


@pytest.fixture
def trails():
    yield audit.get_trail


def test_login_is_audited(tmp_path, trails):
    trails(tmp_path / "audit.jsonl").record("login", user="ana")
    assert (tmp_path / "audit.jsonl").read_text().count('"login"') == 1
