from user_roles_fixture_a_app import promote


def test_default_user_is_viewer(default_user):
    assert default_user["roles"] == ["viewer"]


def test_promote_adds_admin(default_user):
    promoted = promote(default_user)
    assert "admin" in promoted["roles"]
