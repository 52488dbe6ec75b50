"""Run-length encoding of letters: "aaab" <-> "3a1b"."""

from __future__ import annotations

import re


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
            out.append(char * int(count))
            count = ""
    return "".join(out)


def encode_bytes(data: bytes) -> bytes:
    """`encode` for the fixture lane: one encoded line per input line."""
    lines = data.decode("utf-8").splitlines()
    return "".join(encode(line) + "\n" for line in lines).encode("utf-8")



def max_run(text: str) -> int:
    """Length of the longest run of one letter (0 for the empty string)."""
    lengths = [len(m.group(0)) for m in re.finditer(r"(.)\1*", text, flags=re.DOTALL)]
    return max(lengths, default=0)
