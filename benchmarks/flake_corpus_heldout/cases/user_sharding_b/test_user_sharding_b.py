from user_sharding_b_app import SHARDS, shard_for


def test_users_land_on_different_shards():
    assert 0 <= shard_for("alice") < SHARDS
    assert shard_for("alice") != shard_for("bob")
