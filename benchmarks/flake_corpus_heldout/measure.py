#!/usr/bin/env python3
"""Measure the failure rate of every case in fresh pytest processes under varied conditions.

Usage: measure.py [--jobs 2] [--only id,id] [--scale 1.0]
Writes tools/results.json (per case, per condition: runs/fails) and manifest.toml.

Conditions (each run is one fresh `python -m pytest` process):
  plain        whole module, file order, cwd = case dir, PYTHONHASHSEED unset (random per process)
  hashseed     explicit PYTHONHASHSEED values 1..2**32-1 (fixed list, same for every case)
  tz-west5     TZ=XYZ+5   (UTC-5)
  tz-east12    TZ=ABC-12  (UTC+12)
  tz-berlin    TZ=Europe/Berlin
  alone        only the judged node id
  reverse      whole module, collected order reversed (tools/measure_order_plugin.py)
  twice        the module passed twice with --keep-duplicates (collected and run twice in one process)
  cwd-parent   pytest started from cases/ with path <case>/test_<case>.py
  columns      COLUMNS=132 (like a wide developer terminal)
  faketime     libfaketime, clock starting 2026-12-30 12:00 (late in the month)
  parallel2    two processes of the same case started at the same moment (each counts as a run)
  load         test process and a busy-loop process pinned together to CPU 0 (taskset)
A run counts as a failure if the judged node is FAILED/ERROR or absent from the report.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent
TOOLS = ROOT / "tools"
PY = "/work/venv/bin/python"
SEEDS = [random.Random(7).randrange(1, 2**32) for _ in range(12)]

PLAN = [("plain", 3), ("hashseed", 2), ("tz-west5", 1), ("tz-east12", 1), ("tz-berlin", 1),
        ("alone", 1), ("reverse", 1), ("twice", 1), ("cwd-parent", 1), ("columns", 1),
        ("faketime", 1), ("parallel2", 2)]
LOAD_RUNS = 2


def base_env():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "PYTHONHASHSEED", "TZ", "COLUMNS", "LINES", "FAKETIME"))}
    env["PYTHONPATH"] = str(TOOLS)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    # the venv has third-party plugins (pytest-randomly, xdist, ...); measure plain pytest only
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    return env


def command(case, cond, i):
    env = base_env()
    cwd = ROOT / "cases" / case["id"]
    target = Path(case["file"]).name
    prefix = []
    extra_args = []
    if cond == "hashseed":
        env["PYTHONHASHSEED"] = str(SEEDS[i % len(SEEDS)])
    elif cond == "tz-west5":
        env["TZ"] = "XYZ+5"
    elif cond == "tz-east12":
        env["TZ"] = "ABC-12"
    elif cond == "tz-berlin":
        env["TZ"] = "Europe/Berlin"
    elif cond == "alone":
        target = case["node_id"]
    elif cond == "reverse":
        env["MEASURE_ORDER"] = "reverse"
    elif cond == "twice":
        extra_args = ["--keep-duplicates", target]
    elif cond == "cwd-parent":
        cwd = ROOT / "cases"
        target = f"{case['id']}/{target}"
    elif cond == "columns":
        env["COLUMNS"] = "132"
    elif cond == "faketime":
        prefix = ["faketime", "2026-12-30 12:00:00"]
    elif cond == "load":
        prefix = ["taskset", "-c", "0"]
    cmd = prefix + [PY, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", "-p", "measure_order_plugin",
                    "-o", "addopts=", target] + extra_args
    return cmd, env, cwd


def judge(case, stdout):
    node = case["node_id"]
    outcomes = []
    for line in stdout.splitlines():
        for status in ("PASSED", "FAILED", "ERROR"):
            if line.startswith(status + " "):
                rest = line[len(status) + 1:]
                nid = rest.split(" - ")[0].strip()
                if nid == node or nid.endswith("/" + node):
                    outcomes.append(status)
    if not outcomes:
        return True, "missing"
    return any(o != "PASSED" for o in outcomes), ",".join(outcomes)


def run_once(case, cond, i):
    cmd, env, cwd = command(case, cond, i)
    try:
        p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=120)
        out = p.stdout
    except subprocess.TimeoutExpired:
        return True, "timeout"
    return judge(case, out)


def run_parallel2(case, i):
    cmd, env, cwd = command(case, "plain", i)
    procs = [subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
             for _ in range(2)]
    res = []
    for p in procs:
        out, _ = p.communicate(timeout=120)
        res.append(judge(case, out))
    return res


def measure_case(case, plan):
    stats = {}
    notes = set()
    for cond, n in plan:
        s = stats.setdefault(cond, {"runs": 0, "fails": 0})
        i = 0
        while i < n:
            if cond == "parallel2":
                results = run_parallel2(case, i)
                i += 2
            else:
                results = [run_once(case, cond, i)]
                i += 1
            for failed, detail in results:
                s["runs"] += 1
                s["fails"] += failed
                if detail in ("missing", "timeout"):
                    notes.add(f"{cond}:{detail}")
    return stats, sorted(notes)


def merge(a, b):
    for cond, s in b.items():
        t = a.setdefault(cond, {"runs": 0, "fails": 0})
        t["runs"] += s["runs"]
        t["fails"] += s["fails"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--phase", default="all", choices=["all", "main", "load", "extra"])
    ap.add_argument("--extra", type=int, default=30)
    ap.add_argument("--skip-done", action="store_true")
    ap.add_argument("--cond", default="plain")
    ap.add_argument("--results", default="")
    ap.add_argument("--part", default="")
    args = ap.parse_args()
    cases = json.loads((TOOLS / "cases.json").read_text())
    if args.only:
        want = set(args.only.split(","))
        cases = [c for c in cases if c["id"] in want]
    if args.part:
        i, n = map(int, args.part.split("/"))
        cases = [c for k, c in enumerate(cases) if (k // 2) % n == i]
    res_path = TOOLS / args.results if args.results else TOOLS / {"all": "results.json", "main": "results.json", "load": "results_load.json",
                        "extra": "results_extra.json"}[args.phase]
    results = json.loads(res_path.read_text()) if res_path.exists() else {}
    lock = threading.Lock()
    if args.skip_done:
        cases = [c for c in cases if c["id"] not in results]

    def save():
        with lock:
            res_path.write_text(json.dumps(results, indent=1, sort_keys=True))

    def record(case, stats, notes, reset):
        with lock:
            r = results.setdefault(case["id"], {"stats": {}, "notes": []})
            if reset:
                r["stats"] = {}
                r["notes"] = []
            merge(r["stats"], stats)
            r["notes"] = sorted(set(r["notes"]) | set(notes))
        save()

    t0 = time.time()
    if args.phase in ("all", "main"):
        with ThreadPoolExecutor(args.jobs) as ex:
            futs = {ex.submit(measure_case, c, PLAN): c for c in cases}
            for f, c in futs.items():
                stats, notes = f.result()
                record(c, stats, notes, reset=True)
                print(f"[{time.time()-t0:6.0f}s] {c['id']:32s} {'FLAKY ' if c['flaky'] else 'stable'} "
                      f"{sum(s['fails'] for s in stats.values())}/{sum(s['runs'] for s in stats.values())}", flush=True)
    if args.phase in ("all", "load"):
        busy = subprocess.Popen(["taskset", "-c", "0", PY, "-c", "while True: pass"])
        try:
            for c in cases:
                stats, notes = measure_case(c, [("load", LOAD_RUNS)])
                results.setdefault(c["id"], {"stats": {}, "notes": []})["stats"].pop("load", None)
                record(c, stats, notes, reset=False)
                print(f"[{time.time()-t0:6.0f}s] load {c['id']:32s} {stats['load']['fails']}/{stats['load']['runs']}", flush=True)
        finally:
            busy.kill()
    if args.phase == "extra":
        # more runs of one condition for chosen topics (always both twins of a topic, same number of runs)
        busy = None
        if args.cond == "load":
            busy = subprocess.Popen(["taskset", "-c", "0", PY, "-c", "while True: pass"])
        try:
            with ThreadPoolExecutor(1 if busy else args.jobs) as ex:
                futs = {ex.submit(measure_case, c, [(args.cond, args.extra)]): c for c in cases}
                for f, c in futs.items():
                    stats, notes = f.result()
                    record(c, stats, notes, reset=False)
                    print(f"extra {args.cond} {c['id']:32s} {stats[args.cond]['fails']}/{stats[args.cond]['runs']}", flush=True)
        finally:
            if busy:
                busy.kill()
    write_manifest(json.loads((TOOLS / "cases.json").read_text()), load_all())


def load_all():
    merged = {}
    for p in sorted(TOOLS.glob("results*.json")):
        for cid, r in json.loads(p.read_text()).items():
            m = merged.setdefault(cid, {"stats": {}, "notes": []})
            merge(m["stats"], r["stats"])
            m["notes"] = sorted(set(m["notes"]) | set(r["notes"]))
    return merged


def toml_str(s):
    return json.dumps(s, ensure_ascii=False)


def write_manifest(cases, results):
    lines = ["# Flaky-test benchmark corpus 3: one [[case]] per case. Generated by measure.py from tools/cases.json",
             "# and tools/results.json. measured_fail_rate = fails/runs over all conditions; per-condition counts in",
             "# 'conditions' (cond=fails/runs). Condition definitions: see measure.py docstring and README.md.", ""]
    for c in cases:
        r = results.get(c["id"])
        lines.append("[[case]]")
        for k in ("id", "file", "node_id"):
            lines.append(f"{k} = {toml_str(c[k])}")
        lines.append(f"flaky = {'true' if c['flaky'] else 'false'}")
        lines.append(f"class = {toml_str(c['class'])}")
        lines.append(f"trigger = {toml_str(c['trigger'])}")
        lines.append(f"pair = {toml_str(c['pair'])}")
        if r:
            st = r["stats"]
            runs = sum(s["runs"] for s in st.values())
            fails = sum(s["fails"] for s in st.values())
            pl = st.get("plain", {"runs": 0, "fails": 0})
            lines.append(f"measured_fail_rate = {fails / runs:.4f}" if runs else "measured_fail_rate = nan")
            lines.append(f"runs = {runs}")
            lines.append(f"fails = {fails}")
            lines.append(f"plain_fail_rate = {pl['fails'] / pl['runs']:.4f}" if pl["runs"] else "plain_fail_rate = nan")
            worst = max(st.items(), key=lambda kv: kv[1]["fails"] / kv[1]["runs"] if kv[1]["runs"] else 0)
            lines.append(f"max_condition = {toml_str(worst[0])}")
            lines.append(f"max_condition_fail_rate = {worst[1]['fails'] / worst[1]['runs']:.4f}")
            conds = ", ".join(f"{k}={v['fails']}/{v['runs']}" for k, v in st.items())
            lines.append(f"conditions = {toml_str(conds)}")
            lines.append(f"measured_with = {toml_str('fresh pytest process per run, Python 3.11.7, pytest 9.2.0, 2-core shared VM, 2026-12-01 UTC ~12:40-13:40 (wall clock matters for tz-* conditions)')}")
            if r["notes"]:
                lines.append(f"notes = {toml_str('; '.join(r['notes']))}")
        lines.append("")
    (ROOT / "manifest.toml").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
