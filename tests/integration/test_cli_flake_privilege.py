"""Where lanegate runs as root, replay 2 keeps the file-permission override a root CI job has and
the other replays drop it: a test that expects `PermissionError` on a `chmod 000` file passes on a
developer's machine and fails in a root container job, and the lane shows both (`exposed_by:
privilege`); its look-alike that checks the mode bits passes every replay. Not root, the ledger
says the condition did not run and the scorer warns (`flake-privilege-unchecked`)."""

from __future__ import annotations

import os

from tests.integration.test_cli_flake import flake, ledger
from tests.unit.flake.repos import feature_repo

PERMISSIONS = """\
import os
import stat

import pytest


def test_unreadable_file_raises(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("x")
    secret.chmod(0)
    with pytest.raises(PermissionError):
        secret.read_text()


def test_mode_bits_cleared(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("x")
    secret.chmod(0)
    assert stat.S_IMODE(os.stat(secret).st_mode) == 0
"""


def test_a_permission_test_meets_root_and_non_root(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, {"tests/test_perms.py": PERMISSIONS})
    code = flake(repo.path)
    printed = capsys.readouterr().out
    data = ledger(repo.path)
    tests = {t["node_id"].split("::")[1]: t for t in data["tests"]}
    if os.geteuid() != 0:  # this machine cannot show the override: the ledger says so
        assert not data["privilege"]["ran"] and "not root" in data["privilege"]["detail"]
        assert "flake-privilege-unchecked" in printed
        return
    assert code == 1, printed
    assert data["privilege"] == {"ran": True, "detail": ""}
    assert [r["privileged"] for r in data["replays"]] == [False, True, False]
    victim = tests["test_unreadable_file_raises"]
    by_replay = {r["replay"]: r["outcome"] for r in victim["replays"]}
    assert by_replay == {1: "passed", 2: "failed", 3: "passed"}, victim["replays"]
    assert not victim["deterministic"] and victim["exposed_by"] == "privilege", victim
    assert "file-permission override" in victim["reproduce"]
    honest = tests["test_mode_bits_cleared"]
    assert honest["deterministic"], honest
    assert "LANEGATE_FLAKE_PRIVILEGE=root" in data["replays"][1]["command"]
