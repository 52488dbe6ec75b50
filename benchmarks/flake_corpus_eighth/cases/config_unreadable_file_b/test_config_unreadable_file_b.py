import pytest

import config_unreadable_file_b_config as config


def test_unreadable_config_is_reported(tmp_path):
    path = tmp_path / "service.json"
    path.mkdir()  # reading a directory fails for every user
    with pytest.raises(config.ConfigError, match="cannot read"):
        config.load_config(path)
