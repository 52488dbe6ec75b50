from thumbnail_shards_a_shards import shard

IMAGES = [f"img_{i:03d}.jpg" for i in range(100)]


def test_batches_are_spread_over_workers():
    shards = shard(IMAGES)
    assert sum(map(len, shards)) == 100
    assert max(map(len, shards)) <= 50
