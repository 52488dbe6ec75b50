"""Run the whole hostile corpus (or a class of it) end to end and print one line per case and a table
per class: the measurement behind the suite's selection (`suite.txt`), which runs in pytest.

Usage: python -m tests.adversarial.run_corpus [--jobs N] [--only CLASS[,CLASS]] [--out FILE]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.adversarial.harness import Case, Outcome, load_cases, run_case

ALONE = frozenset({"resource", "escape"})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="cases side by side (default 2)")
    parser.add_argument("--only", default="", help="comma-separated classes")
    parser.add_argument("--out", type=Path, default=None, help="also write the lines to FILE")
    args = parser.parse_args()
    wanted = {c for c in args.only.split(",") if c}
    cases = [c for c in load_cases() if not wanted or c.klass in wanted]
    root = Path(tempfile.mkdtemp(prefix="lanegate-corpus-"))
    results: dict[str, tuple[Case, Outcome, float]] = {}

    def one(index: int, case: Case) -> None:
        where = root / f"case-{index:04d}"
        where.mkdir()
        started = time.monotonic()
        outcome = run_case(case, where, tag=f"REDTEAM{index:04d}x")
        results[case.name] = (case, outcome, time.monotonic() - started)
        line = (
            f"{'ok  ' if not outcome.problems else 'FAIL'} {case.name:<60} exit {outcome.exit_code} "
            f"{time.monotonic() - started:6.1f}s  {','.join(outcome.fails)[:80]}"
            + (f"  <- {'; '.join(outcome.problems)}" if outcome.problems else "")
        )
        print(line, flush=True)
        if args.out is not None:
            with args.out.open("a", encoding="utf-8") as handle:
                handle.write(line + "\n")

    alone = [c for c in cases if c.klass in ALONE]
    paired = [c for c in cases if c.klass not in ALONE]
    for index, case in enumerate(alone):
        one(index, case)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for future in [pool.submit(one, len(alone) + i, c) for i, c in enumerate(paired)]:
            future.result()
    by_class: dict[str, list[tuple[Case, Outcome, float]]] = defaultdict(list)
    for entry in results.values():
        by_class[entry[0].klass].append(entry)
    print(f"\n{'class':<16} {'cases':>5} {'as expected':>12} {'seconds (median)':>17}")
    for klass in sorted(by_class):
        rows = by_class[klass]
        good = sum(1 for _, outcome, _ in rows if not outcome.problems)
        median = sorted(seconds for *_, seconds in rows)[len(rows) // 2]
        print(f"{klass:<16} {len(rows):>5} {good:>12} {median:>17.1f}")
    bad = sum(1 for _, outcome, _ in results.values() if outcome.problems)
    print(f"{len(results)} cases, {len(results) - bad} as expected, {bad} not")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
