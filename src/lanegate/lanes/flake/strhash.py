"""CPython's string hash under a given PYTHONHASHSEED, and the order a small set of strings iterates in.

The plan uses it to pick hash seeds that put the string sets a test builds from literals into
different orders in different replays: three random seeds leave a two-string set in the same order
one time in four; chosen seeds almost never do. Mirrors CPython 3.11+ (siphash13, the LCG that turns
PYTHONHASHSEED into the secret, and the set table's probing); it only chooses seeds, so an
inexact mirror costs coverage, never correctness.
"""

from __future__ import annotations

from collections.abc import Sequence

_MASK64 = (1 << 64) - 1
_LINEAR_PROBES = 9
_PERTURB_SHIFT = 5
_SET_MINSIZE = 8


def hash_secret(seed: int) -> tuple[int, int]:
    """(k0, k1) of siphash for PYTHONHASHSEED=`seed` (0 disables randomization: a zero key)."""
    if seed == 0:
        return 0, 0
    x = seed & 0xFFFFFFFF
    data = bytearray()
    for _ in range(16):
        x = (x * 214013 + 2531011) & 0xFFFFFFFF
        data.append((x >> 16) & 0xFF)
    return int.from_bytes(data[:8], "little"), int.from_bytes(data[8:], "little")


def _rotl(value: int, shift: int) -> int:
    return ((value << shift) | (value >> (64 - shift))) & _MASK64


def _round(v0: int, v1: int, v2: int, v3: int) -> tuple[int, int, int, int]:
    v0 = (v0 + v1) & _MASK64
    v2 = (v2 + v3) & _MASK64
    v1 = _rotl(v1, 13) ^ v0
    v3 = _rotl(v3, 16) ^ v2
    v0 = _rotl(v0, 32)
    v2 = (v2 + v1) & _MASK64
    v0 = (v0 + v3) & _MASK64
    v1 = _rotl(v1, 17) ^ v2
    v3 = _rotl(v3, 21) ^ v0
    v2 = _rotl(v2, 32)
    return v0, v1, v2, v3


def siphash13(k0: int, k1: int, data: bytes) -> int:
    """CPython's siphash13 of `data` (unsigned 64 bits)."""
    v0 = k0 ^ 0x736F6D6570736575
    v1 = k1 ^ 0x646F72616E646F6D
    v2 = k0 ^ 0x6C7967656E657261
    v3 = k1 ^ 0x7465646279746573
    full = len(data) - len(data) % 8
    for start in range(0, full, 8):
        word = int.from_bytes(data[start : start + 8], "little")
        v3 ^= word
        v0, v1, v2, v3 = _round(v0, v1, v2, v3)
        v0 ^= word
    last = ((len(data) & 0xFF) << 56) | int.from_bytes(data[full:], "little")
    v3 ^= last
    v0, v1, v2, v3 = _round(v0, v1, v2, v3)
    v0 ^= last
    v2 ^= 0xFF
    for _ in range(3):
        v0, v1, v2, v3 = _round(v0, v1, v2, v3)
    return (v0 ^ v1) ^ (v2 ^ v3)


def _buffer(text: str) -> bytes:
    widest = max((ord(c) for c in text), default=0)
    if widest < 256:
        return text.encode("latin-1")
    if widest < 65536:
        return text.encode("utf-16-le")
    return text.encode("utf-32-le")


def str_hash(text: str, key: tuple[int, int]) -> int:
    """`hash(text)` in a process whose hash secret is `key`, as an unsigned 64-bit value."""
    if not text:
        return 0
    value = siphash13(key[0], key[1], _buffer(text))
    return (_MASK64 - 1) if value == _MASK64 else value  # -1 is reserved: CPython returns -2


def _insert(table: list[str | None], hashes: dict[str, int], item: str) -> None:
    mask = len(table) - 1
    full_hash = hashes[item]
    i = full_hash & mask
    perturb = full_hash
    while True:
        probes = _LINEAR_PROBES if i + _LINEAR_PROBES <= mask else 0
        j = i
        while True:
            if table[j] is None:
                table[j] = item
                return
            if table[j] == item:
                return
            if probes == 0:
                break
            probes -= 1
            j += 1
        perturb >>= _PERTURB_SHIFT
        i = (i * 5 + 1 + perturb) & mask


def set_order(items: Sequence[str], key: tuple[int, int]) -> tuple[str, ...]:
    """The iteration order of `set(items)` (items inserted in the given order) under `key`."""
    hashes = {item: str_hash(item, key) for item in items}
    table: list[str | None] = [None] * _SET_MINSIZE
    used = 0
    for item in items:
        if item in (t for t in table if t is not None):
            continue
        _insert(table, hashes, item)
        used += 1
        if used * 5 >= (len(table) - 1) * 3:
            size = _SET_MINSIZE
            while size <= used * 4:
                size <<= 1
            old = [t for t in table if t is not None]
            table = [None] * size
            for entry in old:
                _insert(table, hashes, entry)
    return tuple(t for t in table if t is not None)
