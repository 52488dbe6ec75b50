import pathlib

import feature_flags_a_flags as flags
from feature_flags_a_checkout import checkout_steps

FLAGS_FILE = pathlib.Path(__file__).with_name("feature_flags_a_flags.json")


def test_flags_file_loads():
    flags.load(FLAGS_FILE)
    assert flags.enabled("express_checkout")
    assert not flags.enabled("dark_mode")


def test_express_checkout_skips_cart():
    assert checkout_steps() == ["payment", "confirm"]
