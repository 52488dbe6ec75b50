"""Chooses the directory for the thumbnail cache."""
import os


def pick_cache_dir(preferred, fallback):
    try:
        probe = os.path.join(preferred, ".write-probe")
        with open(probe, "w"):
            pass
        os.unlink(probe)
        return preferred
    except OSError:
        pass
    os.makedirs(fallback, exist_ok=True)
    return fallback
