"""Order dependence: victims run before their polluters in file order, brittles after their setters."""

import os

REGISTRY = {}
CONFIG = {"mode": "default"}
SEEN = []
CACHE = {}


def test_victim_registry_empty():
    assert REGISTRY == {}


def test_polluter_registers():
    REGISTRY["plugin"] = object
    assert "plugin" in REGISTRY


def test_victim_config_default():
    assert CONFIG["mode"] == "default"


def test_polluter_sets_mode():
    CONFIG["mode"] = "fast"
    assert CONFIG["mode"] == "fast"


def test_victim_env_unset():
    assert "CORPUS_ORDER_FLAG" not in os.environ


def test_polluter_sets_env():
    os.environ["CORPUS_ORDER_FLAG"] = "1"
    assert os.environ["CORPUS_ORDER_FLAG"] == "1"


def test_setter_fills_cache():
    CACHE["answer"] = 42
    assert CACHE["answer"] == 42


def test_brittle_reads_cache():
    assert CACHE["answer"] == 42


def test_setter_records_seen():
    SEEN.append("setter")
    assert "setter" in SEEN


def test_brittle_needs_seen():
    assert SEEN and SEEN[0] == "setter"


def test_independent_local_state():
    local = {}
    local["k"] = 1
    assert local == {"k": 1}


def test_independent_uses_monkeypatch(monkeypatch):
    monkeypatch.setitem(CONFIG, "scratch", True)
    assert CONFIG["scratch"] is True
