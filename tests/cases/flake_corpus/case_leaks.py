"""Leaked process state: cwd, env, temp files and sys.path left behind (flaky) and cleaned look-alikes."""

import os
import sys
import tempfile
from pathlib import Path

HERE = os.getcwd()


def test_victim_cwd_is_repo():
    assert os.getcwd() == HERE


def test_polluter_changes_cwd():
    os.chdir(tempfile.mkdtemp())
    assert os.getcwd() != HERE


def test_victim_env_debug_off():
    assert os.environ.get("CORPUS_DEBUG", "0") == "0"


def test_polluter_debug_on():
    os.environ["CORPUS_DEBUG"] = "1"
    assert os.environ["CORPUS_DEBUG"] == "1"


def test_temp_marker_is_fresh():
    marker = Path(tempfile.gettempdir()) / "corpus-marker.txt"
    assert not marker.exists()
    marker.write_text("seen")


def test_sys_path_entry_once():
    sys.path.append("/corpus/extra")
    assert sys.path.count("/corpus/extra") == 1


def test_monkeypatched_cwd(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    assert Path.cwd() == tmp_path


def test_monkeypatched_env(monkeypatch):
    monkeypatch.setenv("CORPUS_SCRATCH", "1")
    assert os.environ["CORPUS_SCRATCH"] == "1"


def test_tmp_path_marker(tmp_path):
    marker = tmp_path / "marker.txt"
    assert not marker.exists()
    marker.write_text("seen")


def test_monkeypatched_sys_path(monkeypatch):
    monkeypatch.syspath_prepend("/corpus/scratch")
    assert sys.path.count("/corpus/scratch") == 1
