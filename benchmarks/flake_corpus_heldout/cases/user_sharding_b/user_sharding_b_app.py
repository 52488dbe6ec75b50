SHARDS = 4


def shard_for(user_id):
    return hash(user_id) % SHARDS
