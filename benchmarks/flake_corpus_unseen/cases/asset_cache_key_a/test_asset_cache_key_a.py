import os
import subprocess
import sys
from pathlib import Path

from asset_cache_key_a_keys import cache_key

FEATURES = ["minify", "sourcemaps", "legacy-browsers", "css-modules"]


def key_in_worker():
    code = f"import asset_cache_key_a_keys; print(asset_cache_key_a_keys.cache_key('app.tsx', {FEATURES!r}))"
    out = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).parent,
                         capture_output=True, text=True, check=True, env=dict(os.environ))
    return out.stdout.strip()


def test_cache_key_is_stable_across_workers():
    assert cache_key("app.tsx", FEATURES) == key_in_worker()
