import cache_dir_readonly_fallback_a_cachedir as cachedir


def test_falls_back_when_cache_dir_unwritable(tmp_path):
    preferred = tmp_path / "shared-cache"
    preferred.mkdir()
    preferred.chmod(0o555)
    fallback = tmp_path / "user-cache"
    assert cachedir.pick_cache_dir(str(preferred), str(fallback)) == str(fallback)
