"""Signup: a Bloom filter of taken usernames answers 'definitely free' without a database query."""
import hashlib


class BloomFilter:
    def __init__(self, bits=576, hashes=3):
        self.bits = bits
        self.hashes = hashes
        self.array = 0

    def _positions(self, item):
        for i in range(self.hashes):
            digest = hashlib.blake2b(f"{i}:{item}".encode(), digest_size=8).digest()
            yield int.from_bytes(digest, "big") % self.bits

    def add(self, item):
        for pos in self._positions(item):
            self.array |= 1 << pos

    def __contains__(self, item):
        return all(self.array >> pos & 1 for pos in self._positions(item))


def taken_filter(usernames):
    bloom = BloomFilter()
    for name in usernames:
        bloom.add(name.lower())
    return bloom
