import pathlib

DEFAULTS = {"DB_NAME": "shop", "DB_HOST": "localhost"}


def load_settings(path):
    settings = dict(DEFAULTS)
    p = pathlib.Path(path)
    if p.exists():
        for line in p.read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                key, _, value = line.partition("=")
                settings[key.strip()] = value.strip()
    return settings
