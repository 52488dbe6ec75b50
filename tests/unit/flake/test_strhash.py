from __future__ import annotations

import json
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.lanes.flake.plan import choose_hash_seeds
from lanegate.lanes.flake.strhash import hash_secret, set_order, str_hash

WORDS = [
    "apple",
    "banana",
    "",
    "x",
    "a string longer than eight bytes",
    "é",
    "日本",
    "🙂",
    "n",
    "s",
]
GROUPS = [WORDS[0:2], WORDS[3:5], WORDS[0:10], ["north", "south", "east"]]
CODE = (
    "import json, sys\n"
    "words, groups = json.loads(sys.argv[1])\n"
    "print(json.dumps([[hash(w) % 2**64 for w in words], [list(set(g)) for g in groups]]))\n"
)


def test_mirror_matches_the_real_interpreter() -> None:
    for seed in (0, 1, 42, 4294967295):
        done = subprocess.run(
            [sys.executable, "-S", "-c", CODE, json.dumps([WORDS, GROUPS])],
            env={"PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        )
        hashes, orders = json.loads(done.stdout)
        key = hash_secret(seed)
        assert hashes == [str_hash(w, key) for w in WORDS]
        assert orders == [list(set_order(g, key)) for g in GROUPS]


@settings(derandomize=True, max_examples=25)
@given(seed=st.text(max_size=20))
def test_chosen_seeds_flip_two_string_sets(seed: str) -> None:
    groups = [("apple", "banana"), ("left", "right"), ("x", "y")]
    chosen = choose_hash_seeds(seed, 3, groups)
    assert len(set(chosen)) == 3
    for group in groups:
        assert len({set_order(group, hash_secret(s)) for s in chosen}) == 2
    assert choose_hash_seeds(seed, 3, []) == choose_hash_seeds(seed, 3, [])
