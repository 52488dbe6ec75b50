import os

from cwd_export_a_app import export_users, read_users


def test_reads_seed_users():
    assert read_users(os.path.join("data", "users.csv")) == ["ada", "grace"]


def test_export_into_workdir(tmp_path):
    os.chdir(tmp_path)
    out = export_users(["ada"])
    assert os.path.dirname(out) == str(tmp_path)
