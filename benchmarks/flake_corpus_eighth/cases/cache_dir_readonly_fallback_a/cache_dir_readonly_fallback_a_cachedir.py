"""Chooses the directory for the thumbnail cache."""
import os


def pick_cache_dir(preferred, fallback):
    if os.path.isdir(preferred) and os.access(preferred, os.W_OK):
        return preferred
    os.makedirs(fallback, exist_ok=True)
    return fallback
