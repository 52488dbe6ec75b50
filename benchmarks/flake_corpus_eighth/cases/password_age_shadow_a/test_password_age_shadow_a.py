import password_age_shadow_a_shadow as shadow


def test_root_password_age_is_known(tmp_path):
    path = "/etc/shadow"
    assert shadow.last_change_days("root", path) > 0
