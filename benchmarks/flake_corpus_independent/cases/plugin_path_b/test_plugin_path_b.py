import os

PLUGIN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plugins")


def test_plugin_dir_on_path():
    assert os.path.isdir(PLUGIN_DIR)


def test_upper_filter(monkeypatch):
    monkeypatch.syspath_prepend(PLUGIN_DIR)
    import textfilters

    assert textfilters.upper(" ab ") == " AB "
