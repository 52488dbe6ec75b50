"""One-line "key=value;key=value" records, as written to the service's log files."""

from __future__ import annotations

PAIR_SEP = ";"
KV_SEP = "="


def dump_pairs(pairs: dict[str, str]) -> str:
    return PAIR_SEP.join(f"{k}{KV_SEP}{v}" for k, v in pairs.items())


def load_pairs(line: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in line.split(PAIR_SEP) if line else []:
        key, _, value = item.partition(KV_SEP)
        out[key] = value
    return out
