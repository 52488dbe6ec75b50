"""Settings read from the environment once, at import time."""
import os

SEARCH_BACKEND = os.environ.get("SEARCH_BACKEND", "sqlite-fts")
SEARCH_TIMEOUT = float(os.environ.get("SEARCH_TIMEOUT", "2.5"))
