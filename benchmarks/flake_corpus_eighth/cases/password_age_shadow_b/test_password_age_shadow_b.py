import password_age_shadow_b_shadow as shadow


def test_root_password_age_is_known(tmp_path):
    path = tmp_path / "shadow"
    path.write_text("root:*:20228:0:99999:7:::\ndaemon:*:20228:0:99999:7:::\n")
    assert shadow.last_change_days("root", path) > 0
