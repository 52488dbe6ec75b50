"""The dimensions a flake replay varies, and the exact pins of every in-process batch run.

Shared by the lane (which records the pins and names the dimension that exposed a disagreement) and
its pytest plugin (which applies them); stdlib only, so the plugin's import stays cheap.

A batch varies one dimension against the replay's own pins, so a batch whose runs disagree names the
dimension that exposed the flake:
- `repeat`: a fresh `random` (and Hypothesis) seed and a shifted heap per run (run-to-run chance,
  object ids, unseeded draws);
- `zone`: the process's local time zone (`TZ` + `time.tzset()`) rotated over offsets from UTC-12 to
  UTC+14, every hour of the day and the half-hour ones, so a test that buckets by local hour meets
  every bucket; the run's random seed stays the replay's;
- `clock`: the wall clock shifted by a recorded offset (whole hours and days, so a test bucketing by
  UTC hour, weekday or day of month meets every bucket, plus a recorded lead before a whole second,
  so two timestamps taken in one run straddle a second), in-process (`lanes/flake/clock.py`);
- `isolation`: the test alone, in a child forked from the replay's process before any test ran;
  a test that starts threads runs alone again under stalls and under preemption at one call in 2
  and in 10 (the stress dimension's runs): a check-then-act lazy initialisation races, and a
  worker that compiles or imports before it is ready is slow, only on its process's first run,
  and the isolation child is the one in-process run that is a first run;
- `stress`: the interpreter stalled (its GIL held by a sleeping thread) for seeded 5-30 ms stretches
  while the test runs, and a 1 us GIL switch interval: a busy, preempting machine, at no CPU cost;
  every other run only preempts (the switch interval, a shifted heap and the CPU yielded at a
  random share of the function calls of every thread, no stalls): a race that a stall would
  serialize away, and on one free CPU the switch interval alone does not reach. The run's random
  seed stays the replay's;
- `deschedule`: the whole process stopped (`SIGSTOP`, C code included) for a seeded 100-300 ms,
  a seeded share of the test's own base-run time into the run (`lanes/flake/deschedule.py`): a
  busy machine taking the process off the CPU while its clocks run on;
- `hash-seed`: the test called in a fresh interpreter under a recorded `PYTHONHASHSEED` of its own
  (`lanes/flake/fresh.py`), with the replay's random seed: set and dict orders of strings built at
  run time, `hash(str)` buckets, which no in-process run can vary;
- `cwd`, `terminal`, `cpus`, `env`: the host a CI job runs on (`lanes/flake/host.py`), from before
  the test's setup to after its teardown: an empty working directory (a path relative to the cwd),
  a narrow and a wide terminal (`COLUMNS`/`LINES`: what `shutil.get_terminal_size` and argparse
  read), one CPU and four (`os.cpu_count` and the CPU affinity), the variables a hosted CI runner
  exports (`CI`, `GITHUB_ACTIONS`, `NO_COLOR`, `TERM=dumb`) and those of a developer's colour
  terminal (`TERM=xterm-256color`, `COLORTERM`);
- `listing`: every directory listing (`os.listdir`, `os.scandir`, and what is built on them:
  `Path.iterdir`, `glob`, `os.walk`) reversed, then shuffled, from before the test's setup to after
  its teardown: the sandbox's tmpfs lists entries in the order they were made, a CI runner's ext4
  in an order no test may count on;
- `dst`: a zone with daylight saving time (US rules, then EU rules) and the wall clock moved to
  00:30 local time on the day of its next change (spring forward, then fall back), in-process
  (`lanes/flake/clock.py`): a local day of 23 or 25 hours, which no fixed-offset zone has;
- `calendar`: the wall clock moved ahead to the next calendar position a test may break on
  (`CALENDAR_POSITIONS`: the 31st late in the day, 31 January and a 31st before a 30-day month at
  noon, the 1st of a month, 29 February, 28 February of a common year, 31 December late and at noon,
  1 January, the 30th of a 30-day month, a quarter second before local midnight), the late and
  early ones in a zone where the local date and the UTC date differ (a test that mixes
  `date.today()` with `utcnow()`), the noon ones where both dates agree: the clock dimension's
  steps reach a month end only when today is near one, and never a year end or a leap day;
- `shared-host`: two copies of the test started at the same moment, each in a child forked from
  the replay's process before any test ran, so they share its `/tmp`, its loopback network and its
  working tree as two pytest-xdist workers (or two matrix jobs on one self-hosted runner) share a
  machine: a fixed path under `/tmp`, a fixed port, a file written into the tree collide, which
  the sandbox's private `/tmp` and network per replay otherwise hide.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from lanegate.ledgers.dimension import Dimension

__all__ = [
    "BATCH_DIMENSIONS",
    "CPU_COUNTS",
    "CROSS_RUN",
    "CALENDAR_POSITIONS",
    "DST_CHANGES",
    "ENV_SETS",
    "HOST_DIMENSIONS",
    "HOST_RISKS",
    "LISTING_ORDERS",
    "ISOLATION_YIELD_EVERY",
    "TERMINAL_SIZES",
    "WIDE_ZONES",
    "Dimension",
    "RunPins",
    "clock_step",
    "run_pins",
]

BATCH_DIMENSIONS = (
    Dimension.REPEAT,
    Dimension.ZONE,
    Dimension.CLOCK,
    Dimension.STRESS,
    Dimension.ISOLATION,
    Dimension.HASH_SEED,
    Dimension.CWD,
    Dimension.TERMINAL,
    Dimension.CPUS,
    Dimension.DST,
    Dimension.CALENDAR,
    Dimension.SHARED_HOST,
    Dimension.ENV,
    Dimension.DESCHEDULE,
    Dimension.LISTING,
)
# The host dimensions hold from before a test's setup to after its teardown (a fixture that changes
# the directory or the environment itself must win), not only around its call.
HOST_DIMENSIONS = frozenset(
    {Dimension.CWD, Dimension.TERMINAL, Dimension.CPUS, Dimension.ENV, Dimension.LISTING}
)
# the risk names a test's AST earns for them (`select.HOST_RISK_NAMES`): the dimensions' own names
HOST_RISKS = frozenset(str(d) for d in HOST_DIMENSIONS)

# POSIX TZ strings, one per hour offset from UTC-12 to UTC+14 plus the half- and quarter-hour zones
# that exist (India, Nepal, Newfoundland, Chatham...). Alphabetic names: `<X>-5` is silently UTC on
# some C libraries.
_HOURS = (
    0,
    1,
    -1,
    2,
    -2,
    3,
    -3,
    4,
    -4,
    5,
    -5,
    6,
    -6,
    7,
    -7,
    8,
    -8,
    9,
    -9,
    10,
    -10,
    11,
    -11,
    12,
    -12,
)
WIDE_ZONES = (
    *(f"LGZ{-h:+d}" if h else "UTC0" for h in _HOURS),
    "LGZ-13",
    "LGZ-14",
    "LGZ-5:30",
    "LGZ-5:45",
    "LGZ+3:30",
    "LGZ-9:30",
    "LGZ-12:45",
)
# Shared-host runs from this one on start beside a run of another test (two by two beside
# themselves before it): runs 0-3 are two pairs of copies of the test, runs 4 and 5 meet the tests
# before and after it in the replay's order.
CROSS_RUN = 4
# Runs of the stress dimension stall the interpreter for this long (seconds), at most once per gap.
STALL_RANGE = (0.005, 0.030)
GAP_RANGE = (0.002, 0.015)
SWITCH_INTERVAL = 1e-6
# Preempting stress runs yield the CPU at one function call in N (`stress.Preemption`), N by run:
# every other call suits a race of a few calls, one in a hundred a loop of thousands.
YIELD_EVERY = (2, 10, 100)
# A thread test's isolation runs after the first two (alone, then stalled) preempt at these rates:
# a first run's race is in its first calls, so the rarest rate is left out.
ISOLATION_YIELD_EVERY = YIELD_EVERY[:-1]
# Deschedule runs stop the process for this long (seconds): a busy CI machine's hundreds of ms.
DESCHEDULE_RANGE = (0.1, 0.3)
# Clock runs: an hour shift per run (every UTC hour within 24 runs) and a lead before a whole second.
CLOCK_LEADS = (0.0005, 0.002, 0.008, 0.03, 0.1, 0.3)  # 6 is prime to 35
# Terminal runs: (COLUMNS, LINES), narrow then wide; a CI job has no terminal at all (80 x 24, the
# fallback), a developer's is anything.
TERMINAL_SIZES = ((40, 12), (200, 60))
# CPU runs: a one-CPU container, then a GitHub-hosted Linux runner's four.
CPU_COUNTS = (1, 4)
# Env runs: the variables another machine's environment sets (the replays' own environment is
# scrubbed: none of these reach a base run). A hosted CI runner (GitHub Actions exports `CI` and
# `GITHUB_ACTIONS`; CI images and no-color.org users export `NO_COLOR`; no terminal: `TERM=dumb`),
# then a developer's colour terminal.
ENV_SETS: tuple[tuple[tuple[str, str], ...], ...] = (
    (("CI", "true"), ("GITHUB_ACTIONS", "true"), ("NO_COLOR", "1"), ("TERM", "dumb")),
    (("TERM", "xterm-256color"), ("COLORTERM", "truecolor")),
)
# Listing runs: the order directories list their entries in. The sandbox's temporary directories and
# its copy of the tree are a tmpfs, which lists in the order entries were made; the ext4 of a CI
# runner lists in the order of a hash of each name, so that `os.listdir` after two writes returns
# them either way round. The first run reverses every listing (a test that expects the order of
# creation, or of names made in sorted order, meets the other one), the second shuffles it.
LISTING_ORDERS = ("reversed", "shuffled")
# DST runs: (POSIX zone with its rules, which change): the US spring-forward day, the EU fall-back
# day (a zone named like `America/New_York` or `Europe/Berlin` meets its own rules' day too).
DST_CHANGES = (("LGS+5LGD,M3.2.0,M11.1.0", "start"), ("LGC-1LGK,M3.5.0,M10.5.0/3", "end"))
# (position, zone): where a calendar run moves the clock (`clock.calendar_offset`), in a zone whose
# local date differs from the UTC date there (POSIX TZ: `LGM+10` is UTC-10)
CALENDAR_POSITIONS = (
    ("month-end-31", "LGM+10"),  # the 31st, 23:30 local; UTC: the 1st of the next month
    ("jan-31", "UTC0"),  # 31 January, noon: a month later there is no 29th, 30th or 31st
    ("31-before-30", "UTC0"),  # a 31st before a 30-day month (March, May, August, October), noon
    ("month-start", "LGN-14"),  # the 1st, 00:30 local; UTC: the last day of the month before
    ("feb-29", "LGU-1"),  # 29 February, 12:00 local
    ("feb-28-common", "LGP+5"),  # 28 February of a common year, 23:30 local; UTC: 1 March
    ("year-end", "LGY+8"),  # 31 December, 23:30 local; UTC: 1 January
    ("year-end-noon", "UTC0"),  # 31 December, noon: the local and the UTC date both the last day
    ("year-start", "LGJ-9"),  # 1 January, 00:30 local; UTC: 31 December
    ("month-end-30", "LGT-2"),  # the 30th of a 30-day month, 12:00 local
    ("midnight", "LGH-5:30"),  # a quarter second before local midnight
)


@dataclass(frozen=True, slots=True)
class RunPins:
    """Everything one batch run pins beyond its replay's pins; rendered into the ledger."""

    dimension: Dimension
    run: int
    random_key: str
    tz: str | None = None
    clock_hours: int = 0
    clock_lead: float = 0.0
    stress_seed: int | None = None
    preempt: bool = False  # a stress run without stalls: the 1 us switch interval and yields
    yield_every: int = 0  # a preempting run yields the CPU at one function call in this many
    hash_seed: int | None = None  # a hash-seed run's PYTHONHASHSEED (a fresh interpreter)
    empty_cwd: bool = False  # a cwd run: the test runs in an empty working directory
    terminal: tuple[int, int] | None = None  # a terminal run's (COLUMNS, LINES)
    cpus: int | None = None  # a cpus run's CPU count (and affinity, as far as the host has CPUs)
    dst_change: str | None = None  # a dst run: the clock at 00:30 on the next `start` or `end` day
    calendar: str | None = None  # a calendar run's position (`CALENDAR_POSITIONS`)
    beside: int | None = None  # a shared-host run: the run started at the same moment beside it
    # a shared-host run started beside a run of the next shared-host test (itself when alone)
    beside_other: bool = False
    env: tuple[tuple[str, str], ...] = ()  # an env run's variables (`ENV_SETS`)
    # a deschedule run: (share of the test's base-run seconds before the stop, stop seconds)
    deschedule: tuple[float, float] | None = None
    listing: str | None = None  # a listing run: `LISTING_ORDERS`, what directory listings return
    listing_seed: int = 0  # a shuffled listing run's seed

    def describe(self) -> str:
        """`dimension run N (pins)`, the way the ledger and the report name one run."""
        parts = [f"random seed key {self.random_key!r}"]
        if self.tz is not None:
            parts.append(f"TZ={self.tz}")
        if self.hash_seed is not None:
            parts.append(f"PYTHONHASHSEED={self.hash_seed} in a fresh interpreter")
        if self.dimension is Dimension.CLOCK:
            parts.append(
                f"clock shifted {self.clock_hours:+d} h, {self.clock_lead:g} s before a second"
            )
        if self.beside is not None:
            parts.append(
                f"started beside run {self.beside}, a copy of itself sharing /tmp, the network "
                "and the working tree"
            )
        if self.beside_other:
            parts.append(
                "started beside the next test of the replay's shared-host runs (itself when it "
                "is the only one), sharing /tmp, the network and the working tree"
            )
        if self.calendar is not None:
            parts.append(f"clock moved ahead to the next {self.calendar} position")
        if self.dst_change is not None:
            parts.append(
                f"clock moved to 00:30 local time on the day of the next DST {self.dst_change}"
            )
        if self.empty_cwd:
            parts.append("working directory: an empty directory")
        if self.terminal is not None:
            parts.append(f"COLUMNS={self.terminal[0]} LINES={self.terminal[1]}")
        if self.cpus is not None:
            parts.append(f"os.cpu_count() = {self.cpus}, affinity at most {self.cpus} CPUs")
        if self.env:
            parts.append("environment " + " ".join(f"{k}={v}" for k, v in self.env))
        if self.listing == "reversed":
            parts.append("directory listings reversed")
        elif self.listing is not None:
            parts.append(f"directory listings shuffled by seed {self.listing_seed}")
        if self.deschedule is not None:
            share, hold = self.deschedule
            parts.append(
                f"process stopped {hold:.3f} s, {share:.2f} of its base run's time into the run"
            )
        if self.preempt:
            parts.append(
                f"GIL switch interval 1 us, the CPU yielded at 1 in {self.yield_every} calls "
                "of the threads the test starts, no stalls"
            )
        elif self.stress_seed is not None:
            parts.append(f"GIL stalls seeded {self.stress_seed}")
        return f"{self.dimension} run {self.run} ({', '.join(parts)})"


CLOCK_STEP_HOURS = 23
CLOCK_STEPS = 35


def clock_step(run: int) -> int:
    """Clock run `run` moves the clock `CLOCK_STEP_HOURS * clock_step(run)` hours ahead. Steps of
    23 hours move the date by at most one day each (never skipping one) and the hour back by one,
    so the 35 steps 0..34 reach, whatever the time of day, every date from today to 32 days ahead
    (every later day of this month, every weekday, a month's last day) and every hour. 16 is prime
    to 35, so the runs take the steps in a far-first order: run 0 is 16 steps (15 days and 8 hours)
    ahead, past a date two weeks away; run 1 one step; run 2 17 steps."""
    return (16 * (run + 1)) % CLOCK_STEPS


def run_pins(dimension: Dimension, run: int, base_random: int) -> RunPins:
    """The pins of run `run` (from 0) of a `dimension` batch in a replay whose random seed is
    `base_random`: a pure function of recorded values."""
    if dimension is Dimension.REPEAT:
        return RunPins(dimension, run, f"repeat:{run}")
    if dimension is Dimension.ZONE:
        return RunPins(dimension, run, "0", tz=WIDE_ZONES[run % len(WIDE_ZONES)])
    if dimension is Dimension.CLOCK:
        hours = CLOCK_STEP_HOURS * clock_step(run)
        return RunPins(
            dimension, run, "0", clock_hours=hours, clock_lead=CLOCK_LEADS[run % len(CLOCK_LEADS)]
        )
    if dimension is Dimension.STRESS:
        # even runs stall the interpreter (a descheduled process: timeouts, TTLs); odd runs only
        # preempt threads at nearly every bytecode and yield the CPU between calls (races that a
        # stall would serialize away)
        seed = random.Random(f"{base_random}:stress:{run}").getrandbits(32)
        if run % 2 == 0:
            return RunPins(dimension, run, "0", stress_seed=seed)
        every = YIELD_EVERY[(run // 2) % len(YIELD_EVERY)]
        return RunPins(dimension, run, "0", stress_seed=seed, preempt=True, yield_every=every)
    if dimension is Dimension.DESCHEDULE:
        rng = random.Random(f"{base_random}:deschedule:{run}")
        share, hold = rng.random(), rng.uniform(*DESCHEDULE_RANGE)
        return RunPins(dimension, run, "0", deschedule=(round(share, 4), round(hold, 4)))
    if dimension is Dimension.ISOLATION:
        # run 0 alone; then (a test that starts threads) alone under stalls, then preempted
        # (`ISOLATION_YIELD_EVERY`): a first run's timing and its races
        if run == 0:
            return RunPins(dimension, run, "0")
        seed = random.Random(f"{base_random}:isolation:{run}").getrandbits(32)
        if run == 1:
            return RunPins(dimension, run, "0", stress_seed=seed)
        every = ISOLATION_YIELD_EVERY[(run - 2) % len(ISOLATION_YIELD_EVERY)]
        return RunPins(dimension, run, "0", stress_seed=seed, preempt=True, yield_every=every)
    if dimension is Dimension.HASH_SEED:
        seed = random.Random(f"{base_random}:hash:{run}").getrandbits(32)
        return RunPins(dimension, run, "0", hash_seed=seed)
    if dimension is Dimension.SHARED_HOST:
        # each copy its own random seed, as two processes on one host have: two copies seeded
        # alike draw the same "unique" names and ids and write the same bytes, so their
        # collision on a fixed path leaves nothing to see
        key = f"shared-host:{run}"
        if run >= CROSS_RUN:  # beside another test (`plugin._pairs`), or itself when alone
            return RunPins(dimension, run, key, beside_other=True)
        return RunPins(dimension, run, key, beside=run ^ 1)  # runs 0 and 1 together, 2 and 3
    if dimension is Dimension.CALENDAR:
        position, zone = CALENDAR_POSITIONS[run % len(CALENDAR_POSITIONS)]
        return RunPins(dimension, run, "0", tz=zone, calendar=position)
    if dimension is Dimension.DST:
        zone, change = DST_CHANGES[run % len(DST_CHANGES)]
        return RunPins(dimension, run, "0", tz=zone, dst_change=change)
    if dimension is Dimension.CWD:
        return RunPins(dimension, run, "0", empty_cwd=True)
    if dimension is Dimension.TERMINAL:
        return RunPins(dimension, run, "0", terminal=TERMINAL_SIZES[run % len(TERMINAL_SIZES)])
    if dimension is Dimension.CPUS:
        return RunPins(dimension, run, "0", cpus=CPU_COUNTS[run % len(CPU_COUNTS)])
    if dimension is Dimension.ENV:
        return RunPins(dimension, run, "0", env=ENV_SETS[run % len(ENV_SETS)])
    if dimension is Dimension.LISTING:
        seed = random.Random(f"{base_random}:listing:{run}").getrandbits(32)
        order = LISTING_ORDERS[run % len(LISTING_ORDERS)]
        return RunPins(dimension, run, "0", listing=order, listing_seed=seed)
    raise ValueError(f"{dimension} is not a batch dimension")
