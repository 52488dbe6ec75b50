import os
import sys

PLUGIN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plugins")


def test_plugin_dir_on_path():
    if PLUGIN_DIR not in sys.path:
        sys.path.insert(0, PLUGIN_DIR)
    assert os.path.isdir(PLUGIN_DIR)


def test_upper_filter():
    import textfilters

    assert textfilters.upper(" ab ") == " AB "
