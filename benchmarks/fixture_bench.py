"""Fixture hashing benchmark: lanegate against coreutils `sha256sum` over the same files, in one run.

Full size: 10,000 small files and one 1 GB file; `--smoke`: 200 files and one 20 MB file. Both tools
read warm page cache (every file is read once before timing); each measurement is the best of a few
runs. lanegate is timed the way the lane hashes (walk + hash, in process); `sha256sum` gets the file
list on its command line. Peak RSS is measured in fresh child processes hashing a tiny file and the
large file: flat memory means the two agree to within a few MB.

Usage: python benchmarks/fixture_bench.py [--smoke] [--dir DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lanegate.lanes.fixture import compare
from lanegate.lanes.fixture.hashing import digest_file
from lanegate.lanes.fixture.tree import walk

MB = 1024 * 1024
# VmHWM (Linux) starts afresh at exec; ru_maxrss can carry the parent's peak across fork+exec, so it
# is only the fallback where /proc is missing.
RSS_CHILD = """
import resource, sys
from lanegate.lanes.fixture.hashing import digest_file
digest_file(sys.argv[1])
try:
    with open("/proc/self/status") as status:
        print(next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")))
except OSError:
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _make_small(root: Path, count: int) -> int:
    total = 0
    for i in range(count):
        target = root / "small" / f"d{i // 100:03d}" / f"f{i:05d}.txt"
        target.parent.mkdir(parents=True, exist_ok=True)
        data = os.urandom(200 + (i * 37) % 3800)
        target.write_bytes(data)
        total += len(data)
    return total


def _make_large(path: Path, size: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    block = os.urandom(MB)
    with open(path, "wb") as handle:
        for i in range(size // MB):
            handle.write(block[i % 251 :] + block[: i % 251])


def _warm(paths: list[Path]) -> None:
    for path in paths:
        with open(path, "rb") as handle:
            while handle.read(8 * MB):
                pass


def _best(runs: int, action: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def _sha256sum(paths: list[Path]) -> dict[str, str]:
    done = subprocess.run(
        ["sha256sum", "--", *map(str, paths)], capture_output=True, check=True, text=True
    )
    out = {}
    for line in done.stdout.splitlines():
        digest, name = line.split("  ", 1)
        out[name] = "sha256:" + digest
    return out


def _peak_rss_kb(path: Path) -> int:
    done = subprocess.run(
        [sys.executable, "-c", RSS_CHILD, str(path)], capture_output=True, text=True, check=True
    )
    return int(done.stdout.strip())


def _row(name: str, ours: float, theirs: float, megabytes: float, files: int) -> str:
    return (
        f"{name:<22} lanegate {ours:8.3f}s {megabytes / ours:9.1f} MB/s {files / ours:10.0f} files/s"
        f" | sha256sum {theirs:8.3f}s {megabytes / theirs:9.1f} MB/s {files / theirs:10.0f} files/s"
        f" | ratio {ours / theirs:5.2f}x"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="200 files and a 20 MB file")
    parser.add_argument("--dir", type=Path, default=None, help="work dir (default: a temp dir)")
    args = parser.parse_args(argv)
    if shutil.which("sha256sum") is None:
        print("sha256sum (coreutils) is not on PATH: no baseline to compare with", file=sys.stderr)
        return 2
    count, large_size, runs = (200, 20 * MB, 3) if args.smoke else (10_000, 1024 * MB, 3)
    holder = Path(tempfile.mkdtemp(prefix="lanegate-bench-", dir=args.dir))
    try:
        small_bytes = _make_small(holder, count)
        large = holder / "large" / "big.bin"
        _make_large(large, large_size)
        tiny = holder / "tiny.bin"
        tiny.write_bytes(b"x")
        tree = walk(holder, "small")
        small_paths = [e.path for e in tree.entries]
        _warm([*small_paths, large])

        ours_digests = compare.hash_tree(tree)
        theirs_digests = _sha256sum(small_paths)
        agree = all(ours_digests[e.key] == theirs_digests[str(e.path)] for e in tree.entries)
        agree = agree and digest_file(large) == _sha256sum([large])[str(large)]
        if not agree:
            print("digests disagree with sha256sum", file=sys.stderr)
            return 1

        small_ours = _best(runs, lambda: compare.hash_tree(walk(holder, "small")))
        small_theirs = _best(runs, lambda: _sha256sum(small_paths))
        large_ours = _best(runs, lambda: digest_file(large))
        large_theirs = _best(runs, lambda: _sha256sum([large]))
        rss_tiny, rss_large = _peak_rss_kb(tiny), _peak_rss_kb(large)

        label = "smoke" if args.smoke else "full"
        print(
            f"fixture hashing benchmark ({label}; best of {runs}; warm page cache; digests agree)"
        )
        print(_row(f"{count} small files", small_ours, small_theirs, small_bytes / MB, count))
        print(
            _row(f"1 file of {large_size // MB} MB", large_ours, large_theirs, large_size / MB, 1)
        )
        print(
            f"peak RSS hashing: 1-byte file {rss_tiny / 1024:.1f} MB, {large_size // MB} MB file "
            f"{rss_large / 1024:.1f} MB (delta {(rss_large - rss_tiny) / 1024:+.1f} MB: flat in file size)"
        )
        large_ratio, small_ratio = large_ours / large_theirs, small_ours / small_theirs
        print(
            f"targets: large file <= 1.5x sha256sum: {large_ratio:.2f}x "
            f"{'met' if large_ratio <= 1.5 else 'MISSED'}; many small files < 2x: {small_ratio:.2f}x "
            f"{'met' if small_ratio < 2 else 'MISSED'}"
        )
    finally:
        shutil.rmtree(holder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
