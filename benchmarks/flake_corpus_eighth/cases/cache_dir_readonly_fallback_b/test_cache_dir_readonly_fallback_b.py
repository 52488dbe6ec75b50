import cache_dir_readonly_fallback_b_cachedir as cachedir


def test_falls_back_when_cache_dir_unwritable(tmp_path):
    preferred = tmp_path / "shared-cache"
    preferred.write_text("not a directory")  # unwritable for every user
    fallback = tmp_path / "user-cache"
    assert cachedir.pick_cache_dir(str(preferred), str(fallback)) == str(fallback)
