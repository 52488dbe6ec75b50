"""The names shared by the lane and its pytest plugin: pin variables, seed derivation, plugin names.

Kept apart from the plugin so that lanegate itself never imports pytest to read them.
"""

from __future__ import annotations

import zlib

CHANNEL_VAR = "LANEGATE_FLAKE_CHANNEL"
ORDER_VAR = "LANEGATE_FLAKE_ORDER"
ORDER_SEED_VAR = "LANEGATE_FLAKE_ORDER_SEED"
RANDOM_SEED_VAR = "LANEGATE_FLAKE_RANDOM_SEED"
REPEATS_VAR = "LANEGATE_FLAKE_REPEATS"
EXTRA_REPEATS_VAR = "LANEGATE_FLAKE_EXTRA_REPEATS"
EXTRA_TESTS_VAR = "LANEGATE_FLAKE_EXTRA_TESTS"
FORBIDDEN_VAR = "LANEGATE_FLAKE_FORBIDDEN"
HYPOTHESIS_DB_VAR = "LANEGATE_FLAKE_HYPOTHESIS_DATABASE"  # "off": no example database in a replay
# JSON `[[node_id, dimension, runs], ...]`: the in-process batches a replay runs after its passes.
BATCHES_VAR = "LANEGATE_FLAKE_BATCHES"
# "root": the replay keeps the file-permission override a root CI job has (`sandbox.probe.
# PRIVILEGE_CAPS`); read and removed by the lane when it starts the replay, never seen by a test
PRIVILEGE_VAR = "LANEGATE_FLAKE_PRIVILEGE"
PRIVILEGE_ROOT = "root"
# a folder of TZif files for the `TZ` strings the lane sets (`zonefiles`); not a pin: the lane sets
# it for every replay, and the plugin takes it out of the environment
ZONEINFO_VAR = "LANEGATE_FLAKE_ZONEINFO"


def derived_seed(random_seed: int, node_id: str, repeat: int | str) -> int:
    """The `random` (and Hypothesis) seed of one test run: a pure function of recorded values
    (`repeat` is the run's index in its replay, or a batch run's random key)."""
    return zlib.crc32(f"{random_seed}:{node_id}:{repeat}".encode())


def normalized_plugin_name(name: str) -> str:
    """`pytest-rerunfailures`, `pytest_rerunfailures` and `rerunfailures` are one plugin."""
    return name.strip().lower().replace("-", "_").removeprefix("pytest_")
