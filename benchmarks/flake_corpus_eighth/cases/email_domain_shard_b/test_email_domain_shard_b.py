import email_domain_shard_b_shard as shard


def test_tenants_on_different_shards():
    # the two biggest tenants must not share a shard (capacity plan)
    assert shard.shard_for("acme-corp.example") != shard.shard_for("globex.example")
