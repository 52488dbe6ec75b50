import user_profile_lru_cache_b_profiles as profiles


def test_new_profile_is_viewer():
    assert profiles.load_profile(42)["roles"] == ["viewer"]


def test_promote_to_admin():
    assert "admin" in profiles.promote(42, "admin")["roles"]
