"""Print the class table and rate ranges from manifest.toml (used to write README.md)."""
import collections
import tomllib
from pathlib import Path

m = tomllib.loads((Path(__file__).resolve().parent.parent / "manifest.toml").read_text())
rows = collections.defaultdict(lambda: [0, 0, [], []])
for c in m["case"]:
    r = rows[c["class"]]
    if c["flaky"]:
        r[0] += 1
        r[2].append((c.get("measured_fail_rate", float("nan")), c.get("max_condition_fail_rate", float("nan")), c["id"]))
    else:
        r[1] += 1
        r[3].append(c.get("fails", -1))
print("| class | flaky | stable | flaky overall fail rate (min-max) | flaky worst-condition rate (min-max) | stable fails |")
print("|---|---|---|---|---|---|")
tf = ts = 0
for k in sorted(rows):
    f, s, fr, sf = rows[k]
    tf += f; ts += s
    o = [x[0] for x in fr]; w = [x[1] for x in fr]
    print(f"| {k} | {f} | {s} | {min(o):.2f}-{max(o):.2f} | {min(w):.2f}-{max(w):.2f} | {sum(sf)} |")
print(f"| **total** | **{tf}** | **{ts}** | | | |")
print()
for c in m["case"]:
    if c["flaky"] and c.get("fails", 0) == 0:
        print("FLAKY WITH 0 FAILS:", c["id"])
    if not c["flaky"] and c.get("fails", 0) > 0:
        print("STABLE WITH FAILS:", c["id"], c.get("conditions"))
