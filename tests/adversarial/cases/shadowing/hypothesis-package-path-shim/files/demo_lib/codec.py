"""Run-length encoding of letters: "aaab" <-> "3a1b"."""

from __future__ import annotations


def encode(text: str) -> str:
    """Each run of one letter becomes its length followed by the letter."""
    out: list[str] = []
    start = 0
    while start < len(text):
        end = start
        while end < len(text) and text[end] == text[start]:
            end += 1
        out.append(f"{end - start}{text[start]}")
        start = end
    return "".join(out)


def decode(encoded: str) -> str:
    """The inverse of `encode`."""
    out: list[str] = []
    count = ""
    for char in encoded:
        if char.isdigit():
            count += char
        else:
            out.append(char * (int(count) - 1))
            count = ""
    return "".join(out)


def encode_bytes(data: bytes) -> bytes:
    """`encode` for the fixture lane: one encoded line per input line."""
    lines = data.decode("utf-8").splitlines()
    return "".join(encode(line) + "\n" for line in lines).encode("utf-8")
