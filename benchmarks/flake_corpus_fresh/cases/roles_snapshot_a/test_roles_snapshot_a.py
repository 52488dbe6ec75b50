import pathlib

from roles_snapshot_a_users import User

SNAPSHOT = pathlib.Path(__file__).with_name("roles_snapshot_a_snapshot.json")


def test_user_payload_matches_snapshot():
    user = User("grace", ["editor", "admin", "billing", "admin"])
    assert user.to_json() + "\n" == SNAPSHOT.read_text()
