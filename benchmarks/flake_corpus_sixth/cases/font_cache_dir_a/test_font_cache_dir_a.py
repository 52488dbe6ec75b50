import json
import os
import shutil

import pytest

import font_cache_dir_a_fonts as fonts

FONTS = [f"font{i:03d}" for i in range(300)]


@pytest.fixture
def cache_dir(tmp_path):
    d = str(tmp_path / "fontcache")
    yield d
    shutil.rmtree(d, ignore_errors=True)


def test_font_cache_is_built(cache_dir):
    listed = fonts.build_cache(cache_dir, FONTS)
    assert listed == [f + ".json" for f in FONTS]
    for f in FONTS:
        with open(os.path.join(cache_dir, f + ".json")) as fh:
            assert json.load(fh)["A"] > 0
