import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def load_fixture(name):
    with open(os.path.join(HERE, "fixtures", name)) as fh:
        return json.load(fh)


def export(rows, path):
    with open(path, "w") as fh:
        json.dump(rows, fh)


def test_export_relative_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    export([{"name": "x"}], "out.json")
    assert os.path.exists("out.json")


def test_load_users_fixture():
    users = load_fixture("users.json")
    assert [u["name"] for u in users] == ["ada", "bob"]
