import pytest

import config_unreadable_file_a_config as config


def test_unreadable_config_is_reported(tmp_path):
    path = tmp_path / "service.json"
    path.write_text('{"workers": 4}')
    path.chmod(0o000)
    with pytest.raises(config.ConfigError, match="cannot read"):
        config.load_config(path)
