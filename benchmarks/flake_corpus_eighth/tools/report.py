"""Summaries for README.md from tools/cases.json + tools/results.json (copied from flake-corpus-5; adds the
mixed-condition and runs-per-case lines at the end)."""
import collections
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
cases = json.loads((HERE / "cases.json").read_text())
results = json.loads((HERE / "results.json").read_text())


def stats(c):
    r = results.get(c["id"], {})
    runs = sum(v[1] for v in r.values()); fails = sum(v[0] for v in r.values())
    rates = {k: v[0] / v[1] for k, v in r.items() if v[1]}
    pl = r.get("plain", [0, 0])
    return runs, fails, (fails / runs if runs else None), max(rates.values(), default=None), pl, r


by = collections.defaultdict(lambda: {"f": [], "s": []})
for c in cases:
    by[c["cls"]]["f" if c["flaky"] else "s"].append((c, stats(c)))
print("| class | flaky | stable | flaky overall fail rate (min-max) | flaky worst-condition rate (min-max) | stable fails |")
print("|---|---|---|---|---|---|")
tf = ts = 0
for cls in sorted(by):
    f, s = by[cls]["f"], by[cls]["s"]
    ov = [x[1][2] for x in f if x[1][2] is not None]; wc = [x[1][3] for x in f if x[1][3] is not None]
    sf = sum(x[1][1] for x in s)
    tf += len(f); ts += len(s)
    print(f"| {cls} | {len(f)} | {len(s)} | {min(ov):.2f}-{max(ov):.2f} | {min(wc):.2f}-{max(wc):.2f} | {sf} |")
print(f"| **total** | **{tf}** | **{ts}** | | | |")
fl = [(c, stats(c)) for c in cases if c["flaky"]]
ov = [s[2] for c, s in fl]
print("\nflaky overall rate: <0.10:", sum(x < 0.10 for x in ov), " 0.10-0.40:", sum(0.10 <= x <= 0.40 for x in ov), " >0.40:", sum(x > 0.40 for x in ov))
pr = [s[4][0] / s[4][1] for c, s in fl if s[4][1]]
print("flaky plain rate: 0:", sum(x == 0 for x in pr), " (0,0.05):", sum(0 < x < 0.05 for x in pr), " 0.05-0.20:", sum(0.05 <= x <= 0.20 for x in pr),
      " (0.20,0.5]:", sum(0.2 < x <= 0.5 for x in pr), " >0.5:", sum(x > 0.5 for x in pr))
print("never failed (flaky):", [c["id"] for c, s in fl if s[1] == 0])
print("never passed (flaky):", [c["id"] for c, s in fl if s[1] == s[0]])
print("stable with fails:", [(c["id"], s[5]) for c in cases if not c["flaky"] for s in [stats(c)] if s[1]])
print("stable min plain runs:", min(stats(c)[4][1] for c in cases if not c["flaky"]),
      " min runs:", min(stats(c)[0] for c in cases if not c["flaky"]))
print("flaky variant is _a in", sum(c["id"].endswith("_a") for c, s in fl), "topics")
for c, s in fl:
    print(f"  {c['id']:34s} {c['cls']:14s} runs={s[0]:3d} fails={s[1]:3d} plain={s[4][0]}/{s[4][1]} {', '.join(f'{k}={v[0]}/{v[1]}' for k, v in sorted(s[5].items()) if v[0])}")
# added for flake-corpus-6: flaky cases that failed in some but not all runs of one single condition
mixed = [(c["id"], [k for k, v in sorted(s[5].items()) if 0 < v[0] < v[1]]) for c, s in fl]
print("flaky with a mixed condition (0 < fails < runs):", sum(bool(m) for _, m in mixed), "of", len(fl))
print("flaky without a mixed condition:", [i for i, m in mixed if not m])
runs_all = [stats(c)[0] for c in cases]
print("runs per case: min", min(runs_all), "max", max(runs_all), "total", sum(runs_all))
