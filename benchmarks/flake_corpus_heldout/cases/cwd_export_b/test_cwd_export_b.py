import os
from pathlib import Path

from cwd_export_b_app import export_users, read_users

HERE = Path(__file__).resolve().parent


def test_reads_seed_users():
    assert read_users(HERE / "data" / "users.csv") == ["ada", "grace"]


def test_export_into_workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = export_users(["ada"])
    assert os.path.dirname(out) == str(tmp_path)
