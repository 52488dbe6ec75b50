"""Mailbox sharding by e-mail domain."""
import zlib

SHARDS = 4


def shard_for(domain):
    return zlib.crc32(domain.lower().encode()) % SHARDS
