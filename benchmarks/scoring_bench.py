"""Scorer cost on large ledgers, as ratios against the baseline `json.loads` of the same bytes.

    python -m benchmarks.scoring_bench [--smoke]

Builds a property ledger with N properties, a fixture ledger with N files and cases, a flake ledger
with N tests x 3 replays; then times: parse only (baseline), strict load (parse + writer check + JSON
Schema + model), score, and the Markdown summary.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

from tests.unit.scoring import samples

from lanegate.ledgers.load import dump_bytes
from lanegate.model import Lane
from lanegate.policy import Policy
from lanegate.reporting.markdown import MarkdownReporter
from lanegate.scoring import ScoreInputs, ledger_from_bytes, score


def _ledgers(n: int) -> dict[Lane, bytes]:
    prop = samples.property_ledger()
    props = tuple(replace(prop.properties[0], node_id=f"tests/test_b.py::p{i}") for i in range(n))
    prop = replace(prop, properties=props, cases_run=100 * n)
    fx = samples.fixture_ledger()
    files = tuple(replace(fx.files[0], path=f"tests/fixtures/f{i}.json") for i in range(n))
    cases = tuple(replace(fx.cases[0], id=f"case-{i}") for i in range(n))
    fx = replace(fx, files=files, cases=cases)
    fl = samples.flake_ledger()
    tests = tuple(samples.flake_test(f"tests/test_b.py::t{i}") for i in range(n))
    fl = replace(fl, tests=tests)
    return {
        Lane.PROPERTY: dump_bytes(prop),
        Lane.FIXTURE: dump_bytes(fx),
        Lane.FLAKE: dump_bytes(fl),
    }


def _best(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="tiny size, one repeat")
    args = parser.parse_args(argv)
    n, repeat = (10, 1) if args.smoke else (2000, 3)
    raw = _ledgers(n)
    size = sum(len(b) for b in raw.values())
    now = datetime(2026, 11, 29, 22, tzinfo=UTC)

    def parse() -> None:
        for data in raw.values():
            json.loads(data)

    def load() -> dict[Lane, object]:
        return {lane: ledger_from_bytes(lane, data) for lane, data in raw.items()}

    slots = load()
    inputs = ScoreInputs(ledgers=slots, policy=Policy(), now=now)  # type: ignore[arg-type]
    report = score(inputs)
    assert report.verdict == "pass", report.fails  # large, but valid: only warnings
    base = _best(parse, repeat)
    rows = [
        ("json.loads (baseline)", base),
        ("strict load", _best(load, repeat)),
        ("score", _best(lambda: score(inputs), repeat)),
        ("markdown summary", _best(lambda: MarkdownReporter().render(report, inputs), repeat)),
    ]
    print(f"scoring bench: N={n} ({size / 1e6:.2f} MB of ledgers), best of {repeat}")
    for name, seconds in rows:
        print(f"  {name:<22} {seconds * 1000:9.1f} ms   x{seconds / base:6.1f} baseline")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
