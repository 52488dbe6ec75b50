"""Measure every case of the corpus with plain pytest, one fresh `python -m pytest` process per run.

Copied from flake-corpus-7's measure.py and adapted for flake-corpus-8: default interpreter
/work/venv-corpus8 (pytest + the PyPI package libfaketime, whose bundled libfaketime.so.1 is preloaded
for the ft-* conditions: no system faketime on this VM); new conditions `unprivileged` (setpriv to
uid/gid 65534) and seven `ft-*` fake-clock conditions; new classes shared-host, calendar, privilege in
TARGETED; run counts lowered for the time box (see COUNTS); the manifest header says corpus 8.
Judging and everything else unchanged.

Usage:
  python measure.py [--jobs 2] [--only id1,id2] [--conds plain,reverse,...] [--scale x] [--topup]
                    [--phase targeted|all] [--results tools/results.json] [--manifest] [--dry]

Conditions (a run = one pytest process; only the case's node_id is judged from the -rA report;
FAILED, ERROR or missing = failure):
  plain        whole module, file order, cwd = case dir, PYTHONHASHSEED unset (random per process)
  hashseed     PYTHONHASHSEED = 1, 2, 3, ... (fixed list)
  tz-west5     TZ=XYZ+5 (UTC-5)        tz-east12  TZ=ABC-12 (UTC+12)      tz-berlin  TZ=Europe/Berlin
  alone        only the judged node id
  reverse      collected order reversed (tools/measure_order_plugin.py, MEASURE_ORDER=reverse)
  shuffle      collected order shuffled with random.Random(seed), seed from SHUFFLE_SEEDS by run index
               (the list alternates seeds that keep / swap a 2-test module)
  twice        the module collected twice in one process (--keep-duplicates f f)
  cwd-parent   pytest started from cases/ with <case>/test_<case>.py
  columns      COLUMNS=132
  faketime-late      libfaketime, clock starting at 2026-12-30 12:00:00 (late in the month)
  faketime-june      libfaketime, clock starting at 2026-06-10 10:00:00 (mid-month, mid-year, a Wednesday)
  faketime-weekend   libfaketime, clock starting at 2026-12-05 12:00:00 (a Saturday)
  env-no-color NO_COLOR=1 exported
  env-ci       CI=true exported (as on GitHub Actions / GitLab CI)
  parallel2    two processes of the same case started at the same moment (both counted)
  load         test process and a busy-loop process pinned together with taskset -c 0
  unprivileged the test process runs as uid/gid 65534 (setpriv --reuid/--regid, groups cleared)
  ft-31st ft-leap ft-june ft-yearend ft-night      libfaketime clock (TZ unset = UTC) starting at
               2027-01-31 10:00, 2028-02-29 10:00, 2026-06-10 10:00, 2026-12-30 12:00, 2026-12-08 03:00
  ft-dst-berlin      TZ=Europe/Berlin, local clock starting at 2027-03-27 12:00 (DST starts the next night)
  ft-east12-morning  TZ=ABC-12, local clock starting at 2026-12-08 06:00 (UTC date is still 12-07)
All runs use PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 and -p no:cacheprovider.
"""
import argparse
import concurrent.futures as cf
import json
import os
import pathlib
import platform
import re
import shutil
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent
TOOLS = ROOT / "tools"
PY = os.environ.get("MEASURE_PYTHON", "/work/venv-corpus8/bin/python")
FAKETIME_SO = pathlib.Path(PY).parent.parent / "lib/python3.11/site-packages/libfaketime/vendor/libfaketime/src/libfaketime.so.1"
FT = {"ft-31st": (None, "2027-01-31 10:00:00"), "ft-leap": (None, "2028-02-29 10:00:00"),
      "ft-june": (None, "2026-06-10 10:00:00"), "ft-yearend": (None, "2026-12-30 12:00:00"),
      "ft-night": (None, "2026-12-08 03:00:00"), "ft-dst-berlin": ("Europe/Berlin", "2027-03-27 12:00:00"),
      "ft-east12-morning": ("ABC-12", "2026-12-08 06:00:00")}
NICE = ["nice", "-n", "10"]
# flake-corpus-8 (time box of one session): stable cases 10 plain runs + 2-8 per condition of their class
# (a parallel2 run = 2 processes), flaky cases 8 plain + 2-8 per condition; more can be added with --scale.
# Every case gets plain runs plus the conditions targeting its class (TARGETED) and its own extra
# conditions (cases.json "conds"); stable and flaky twins of a topic get the same conditions.
COUNTS = {"plain": 10, "hashseed": 8, "unprivileged": 4, **{k: 2 for k in FT}, "parallel2": 4, "load": 4,
          "tz-west5": 2, "tz-east12": 3, "tz-berlin": 2, "alone": 2, "reverse": 3, "twice": 3, "shuffle": 3}
COUNTS_FLAKY = {"plain": 8, "hashseed": 8, "unprivileged": 3, **{k: 2 for k in FT}, "parallel2": 4, "load": 4,
                "tz-west5": 2, "tz-east12": 3, "tz-berlin": 2, "alone": 2, "reverse": 2, "twice": 2, "shuffle": 3}
# Conditions that target each class's failure mechanism; the "targeted" phase runs only these (plus
# plain) so that every case gets its relevant perturbations first on a heavily loaded machine.
TARGETED = {
    "order": ["reverse", "twice", "alone", "shuffle"], "resource": ["reverse", "twice", "alone", "shuffle"],
    "random": ["hashseed"], "float": ["hashseed"], "hash-seed": ["hashseed"],
    "time": ["tz-west5", "tz-east12", "tz-berlin", "faketime-late", "faketime-june", "faketime-weekend"],
    "async-wait": ["load", "parallel2"], "timing": ["load", "parallel2"], "concurrency": ["load", "parallel2"],
    "io": ["load", "parallel2"], "network": ["load", "parallel2"],
    "infrastructure": ["cwd-parent", "load", "columns", "env-no-color", "env-ci"],
    "shared-host": ["parallel2"], "calendar": list(FT), "privilege": ["unprivileged"],
}
LOCK = threading.Lock()
MEASURED_WINDOW = os.environ.get("MEASURED_WINDOW", "see README")
SHUFFLE_SEEDS = [1, 5, 2, 7, 3, 9, 4, 11, 6, 12, 8, 13]


def base_env():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "PYTHONHASHSEED", "TZ", "COLUMNS", "LINES", "FAKETIME", "LD_PRELOAD", "NO_COLOR", "FORCE_COLOR", "CI", "DO_NOT_TRACK", "HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy", "BILLING_TIER"))}
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    env["PYTHONPATH"] = str(TOOLS)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def command(case, cond, i):
    cid = case["id"]
    cdir = ROOT / "cases" / cid
    mod = f"test_{cid}.py"
    env = base_env()
    args = [PY, "-m", "pytest", "-rA", "-q", "-p", "no:cacheprovider", "-p", "measure_order_plugin"]
    cwd = cdir
    target = [mod]
    prefix = []
    if cond == "hashseed":
        env["PYTHONHASHSEED"] = str(i + 1)
    elif cond == "tz-west5":
        env["TZ"] = "XYZ+5"
    elif cond == "tz-east12":
        env["TZ"] = "ABC-12"
    elif cond == "tz-berlin":
        env["TZ"] = "Europe/Berlin"
    elif cond == "alone":
        target = [case["node_id"]]
    elif cond == "reverse":
        env["MEASURE_ORDER"] = "reverse"
    elif cond == "shuffle":
        env["MEASURE_ORDER"] = f"shuffle:{SHUFFLE_SEEDS[i % len(SHUFFLE_SEEDS)]}"
    elif cond == "env-ci":
        env["CI"] = "true"
    elif cond == "twice":
        target = ["--keep-duplicates", mod, mod]
    elif cond == "cwd-parent":
        cwd = cdir.parent
        target = [f"{cid}/{mod}"]
    elif cond == "columns":
        env["COLUMNS"] = "132"
    elif cond == "faketime-late":
        env["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
        prefix = ["faketime", "2026-12-30 12:00:00"]
    elif cond == "faketime-june":
        env["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
        prefix = ["faketime", "2026-06-10 10:00:00"]
    elif cond == "faketime-weekend":
        env["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
        prefix = ["faketime", "2026-12-05 12:00:00"]
    elif cond == "env-no-color":
        env["NO_COLOR"] = "1"
    elif cond == "load":
        prefix = ["taskset", "-c", "0"]
    elif cond == "unprivileged":
        prefix = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"]
    elif cond in FT:
        tz, start = FT[cond]
        if tz:
            env["TZ"] = tz
        env["LD_PRELOAD"] = str(FAKETIME_SO)
        env["FAKETIME"] = "@" + start
        env["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
    return NICE + prefix + args + target, env, cwd


def judge(case, out):
    tail = case["node_id"]
    seen = False
    for line in out.splitlines():
        m = re.match(r"^(PASSED|FAILED|ERROR|XFAIL|XPASS|SKIPPED)\s+(\S+)", line)
        if not m:
            continue
        node = m.group(2)
        if node == tail or node.endswith("/" + tail):
            if m.group(1) != "PASSED":
                return False
            seen = True
    return seen


def run_once(case, cond, i):
    cmd, env, cwd = command(case, cond, i)
    if cond == "load":
        hog = subprocess.Popen(NICE + ["taskset", "-c", "0", sys.executable, "-c", "while True: pass"])
        try:
            p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=120)
        finally:
            hog.kill(); hog.wait()
        return [judge(case, p.stdout)], [p.stdout[-3000:]]
    if cond == "parallel2":
        procs = [subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                 for _ in range(2)]
        outs = [p.communicate(timeout=120)[0] for p in procs]
        return [judge(case, o) for o in outs], [o[-3000:] for o in outs]
    try:
        p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=120)
        out = p.stdout
    except subprocess.TimeoutExpired as e:
        out = "TIMEOUT\n" + (e.stdout or "" if isinstance(e.stdout, str) else "")
    return [judge(case, out)], [out[-3000:]]


def cleanup_stray():
    """Remove anything a cwd-parent run may have left directly in cases/ (no case is expected to write there)."""
    for p in (ROOT / "cases").iterdir():
        if p.is_file():
            p.unlink()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--conds", default="")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply per-condition run counts")
    ap.add_argument("--results", default=str(TOOLS / "results.json"))
    ap.add_argument("--phase", default="targeted", choices=["all", "targeted"])
    ap.add_argument("--topup", action="store_true", help="schedule only runs missing from results")
    ap.add_argument("--dry", action="store_true", help="only print the number of scheduled runs")
    ap.add_argument("--manifest", action="store_true", help="only (re)write manifest.toml from results")
    a = ap.parse_args()
    cases = json.loads((TOOLS / "cases.json").read_text())
    res_path = pathlib.Path(a.results)
    results = json.loads(res_path.read_text()) if res_path.exists() else {}
    if not a.manifest:
        only = set(filter(None, a.only.split(",")))
        conds = [c for c in (a.conds.split(",") if a.conds else COUNTS) if c in COUNTS]
        todo = []
        for c in cases:
            if only and c["id"] not in only:
                continue
            for cond in conds:
                if a.phase == "targeted" and cond != "plain" and cond not in TARGETED[c["cls"]] + c.get("conds", []):
                    continue
                counts = COUNTS_FLAKY if c["flaky"] else COUNTS
                want = max(1, round(counts[cond] * a.scale))
                have = 0
                if a.topup:  # only the runs still missing (results already recorded count)
                    have = results.get(c["id"], {}).get(cond, [0, 0])[1] // (2 if cond == "parallel2" else 1)
                # run indices continue after the recorded runs, so that top-ups get new PYTHONHASHSEED values
                # and shuffle seeds instead of repeating those of the first runs (changed for flake-corpus-7)
                for i in range(have, want):
                    todo.append((c, cond, i))
        # interleave so that a case's runs are spread over time (machine load varies)
        # stable cases first within each round: they need the most runs
        todo.sort(key=lambda t: (t[2], t[0]["flaky"], t[1], t[0]["id"]))
        if a.dry:
            import collections
            print(len(todo), collections.Counter(t[1] for t in todo)); return
        log = open(TOOLS / "measure.log", "a")
        start = time.time()
        print(f"{len(todo)} runs, load {os.getloadavg()}", flush=True)
        cleanup_stray()
        with cf.ThreadPoolExecutor(a.jobs) as ex:
            futs = {ex.submit(run_once, *t): t for t in todo}
            for n, f in enumerate(cf.as_completed(futs), 1):
                c, cond, i = futs[f]
                oks, outs = f.result()
                with LOCK:
                    r = results.setdefault(c["id"], {}).setdefault(cond, [0, 0])
                    r[0] += sum(not ok for ok in oks)
                    r[1] += len(oks)
                    for ok, out in zip(oks, outs):
                        if ok == c["flaky"] and not ok or (not c["flaky"] and not ok):
                            pass
                        if not ok:
                            log.write(f"=== FAIL {c['id']} {cond} {i} flaky={c['flaky']}\n{out}\n")
                    if n % 50 == 0:
                        res_path.write_text(json.dumps(results, indent=1, sort_keys=True))
                        print(f"{n}/{len(todo)} {time.time()-start:.0f}s load {os.getloadavg()[0]:.2f}", flush=True)
        res_path.write_text(json.dumps(results, indent=1, sort_keys=True))
        la = os.getloadavg()
        with open(TOOLS / "loadavg.log", "a") as fh:
            fh.write(f"{time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())} UTC end of run ({len(todo)} runs, {time.time()-start:.0f}s): load {la}\n")
    write_manifest(cases, results)


def write_manifest(cases, results):
    import pytest as _p  # noqa
    ver = subprocess.run([PY, "-c", "import pytest,sys;print(pytest.__version__, sys.version.split()[0])"],
                         capture_output=True, text=True).stdout.split()
    mw = (f"fresh pytest process per run, Python {ver[1] if len(ver) > 1 else '?'}, pytest {ver[0] if ver else '?'}, "
          f"2-core shared VM, nice -n 10, 2026-12-07 UTC {MEASURED_WINDOW} (wall clock matters for time cases; see README)")
    lines = ["# Flaky-test benchmark corpus 8: one [[case]] per case. Generated by measure.py from tools/cases.json",
             "# and tools/results.json. measured_fail_rate = fails/runs over all conditions; per-condition counts in",
             "# 'conditions' (cond=fails/runs). Condition definitions: see measure.py docstring and README.md.", ""]
    for c in cases:
        r = results.get(c["id"], {})
        runs = sum(v[1] for v in r.values()); fails = sum(v[0] for v in r.values())
        pl = r.get("plain", [0, 0])
        rates = {k: v[0] / v[1] for k, v in r.items() if v[1]}
        mx = max(sorted(rates), key=lambda k: rates[k]) if rates else ""
        q = lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
        lines += ["[[case]]", f"id = {q(c['id'])}", f"file = {q(c['file'])}", f"node_id = {q(c['node_id'])}",
                  f"flaky = {'true' if c['flaky'] else 'false'}", f"class = {q(c['cls'])}", f"trigger = {q(c['trigger'])}",
                  f"pair = {q(c['pair'])}", f"measured_fail_rate = {fails / runs if runs else 0:.4f}", f"runs = {runs}",
                  f"fails = {fails}", f"plain_fail_rate = {pl[0] / pl[1] if pl[1] else 0:.4f}", f"max_condition = {q(mx)}",
                  f"max_condition_fail_rate = {rates.get(mx, 0):.4f}",
                  "conditions = " + q(", ".join(f"{k}={v[0]}/{v[1]}" for k, v in sorted(r.items()))),
                  f"measured_with = {q(mw)}", ""]
    (ROOT / "manifest.toml").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
