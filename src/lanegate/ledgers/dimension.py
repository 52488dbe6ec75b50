"""The flake lane's dimensions as its ledger names them: stdlib only, so that the lane's pytest
plugin (which pins and reports them in every replay process) imports it without the ledger models."""

from __future__ import annotations

from enum import StrEnum


class Dimension(StrEnum):
    """What exposed a disagreement: the pin a run varied against the runs it disagrees with."""

    ORDER = "order"  # the test's position: another test ran before it (or did not)
    HASH_SEED = "hash-seed"  # another PYTHONHASHSEED, the same outcome wherever it ran
    SECOND_PASS = "second-pass"  # the selection again in one process: state left behind
    # not a flake: only a test's later runs in one process fail, every first run passes
    STATE_LEAK = "state-leak"
    REPEAT = "repeat"  # in-process repetitions with fresh random seeds and a shifted heap
    ZONE = "zone"  # the local time zone, rotated in-process over every hour offset
    CLOCK = "clock"  # the wall clock shifted by a recorded offset
    STRESS = "stress"  # GIL stalls and a 1 us switch interval while the test runs
    ISOLATION = "isolation"  # alone in a fresh process: nothing ran before it
    CWD = "cwd"  # another working directory: an empty one
    TERMINAL = "terminal"  # another terminal size (COLUMNS, LINES)
    CPUS = "cpus"  # another CPU count (os.cpu_count) and a narrower CPU affinity
    DST = "dst"  # a zone with daylight saving time, the clock moved to its next change
    CALENDAR = "calendar"  # the clock moved to a month end, 29 February, a year end or midnight
    SHARED_HOST = "shared-host"  # two copies at once, sharing /tmp, the network and the tree
    ENV = "env"  # the environment variables of another machine (a CI runner, a colour terminal)
    DESCHEDULE = "deschedule"  # the whole process stopped for 100-300 ms while the test runs
    LISTING = "listing"  # directories list their entries in another order (reversed, shuffled)
    # a replay with the file-permission override a root CI job has (CAP_DAC_OVERRIDE, ...)
    PRIVILEGE = "privilege"
