"""Summarise manifest.toml: counts per class, failure-rate distribution, stable-case check."""
import collections
import os
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(ROOT, "manifest.toml"), "rb") as fh:
    cases = tomllib.load(fh)["case"]

flaky = [c for c in cases if c["flaky"]]
stable = [c for c in cases if not c["flaky"]]
print(f"cases: {len(cases)}  flaky: {len(flaky)}  stable: {len(stable)}")
print("\nper class (flaky / stable):")
cls = collections.Counter((c["class"], c["flaky"]) for c in cases)
for k in sorted({c["class"] for c in cases}):
    print(f"  {k:12s} {cls[(k, True)]:3d} / {cls[(k, False)]:3d}")

bins = [(0.0, 0.0, "0 (trigger not present today)"), (1e-9, 0.03, "(0, 3%)"), (0.03, 0.15, "[3%, 15%]"),
        (0.15, 0.35, "(15%, 35%]"), (0.35, 0.65, "(35%, 65%]"), (0.65, 0.999999, "(65%, 100%)"), (1.0, 1.0, "100%")]
print("\nflaky measured_fail_rate distribution:")
for lo, hi, name in bins:
    sel = [c for c in flaky if (c["measured_fail_rate"] == 0.0 if hi == 0.0 else
                                (lo <= c["measured_fail_rate"] <= hi if lo != hi else c["measured_fail_rate"] == lo))]
    if name.startswith("(15"):
        sel = [c for c in flaky if 0.15 < c["measured_fail_rate"] <= 0.35]
    elif name.startswith("(35"):
        sel = [c for c in flaky if 0.35 < c["measured_fail_rate"] <= 0.65]
    elif name.startswith("(65"):
        sel = [c for c in flaky if 0.65 < c["measured_fail_rate"] < 1.0]
    elif name.startswith("[3"):
        sel = [c for c in flaky if 0.03 <= c["measured_fail_rate"] <= 0.15]
    elif name.startswith("(0"):
        sel = [c for c in flaky if 0.0 < c["measured_fail_rate"] < 0.03]
    print(f"  {name:32s} {len(sel):3d}  {' '.join(c['id'] for c in sel)}")
zero = [c for c in flaky if c["measured_fail_rate"] == 0.0]
print("\nflaky with 0 under plain reruns, and their trigger_fail_rate:")
for c in zero:
    print(f"  {c['id']:28s} trigger_fail_rate={c.get('trigger_fail_rate', '-')}  ({c['trigger']})")
bad = [c for c in stable if c["measured_fail_rate"] != 0.0]
print(f"\nstable look-alikes with any failure: {len(bad)} {[c['id'] for c in bad]}")
print(f"total runs: {sum(c.get('runs', 0) for c in cases)}")
