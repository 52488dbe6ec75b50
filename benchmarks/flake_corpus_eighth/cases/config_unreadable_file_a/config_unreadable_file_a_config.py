"""Loads the service configuration."""
import json
import pathlib


class ConfigError(Exception):
    pass


def load_config(path):
    try:
        return json.loads(pathlib.Path(path).read_text())
    except OSError as e:
        raise ConfigError(f"cannot read {path}: {e.strerror}") from e
