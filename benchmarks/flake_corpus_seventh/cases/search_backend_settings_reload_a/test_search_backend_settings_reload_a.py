import importlib

import pytest

import search_backend_settings_reload_a_search as search
import search_backend_settings_reload_a_settings as settings


@pytest.fixture
def reload_settings(monkeypatch):
    def _reload(**env):
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        importlib.reload(settings)
    yield _reload


def test_default_backend_is_sqlite():
    assert search.backend_info() == {"backend": "sqlite-fts", "timeout": 2.5}


def test_elasticsearch_backend_from_env(reload_settings):
    reload_settings(SEARCH_BACKEND="elasticsearch", SEARCH_TIMEOUT="10")
    assert search.backend_info() == {"backend": "elasticsearch", "timeout": 10.0}
