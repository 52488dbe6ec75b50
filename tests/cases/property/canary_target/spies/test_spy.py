"""An attacker's test: it records everything it can see that might tell a canary from a real mutant
(the job's handle and files, the worker's folder, the environment, how many mutants came before it
in this worker, the time), into the worker's own folder, and passes."""

import json
import os
import time
from pathlib import Path

import shapes

from lanegate.lanes.property import plugin


def test_spy():
    out = Path(plugin.JOB["out"])
    folder = out.parent
    job_file = folder.joinpath(out.stem + ".mutant.json")
    if not job_file.exists():
        return  # the unmutated control run
    counter = Path(shapes.__file__).with_name(".spy-count")  # the sandbox's tree: kept per worker
    seen_before = int(counter.read_text()) if counter.exists() else 0
    counter.write_text(str(seen_before + 1))
    mutant = json.loads(job_file.read_text())
    readable = {}
    for path in folder.iterdir():
        if path.is_file() and not path.name.startswith("spy-"):
            readable[path.name] = path.read_text(errors="replace")
    seen = {
        "handle": out.stem,
        "position": seen_before,
        "mutant_keys": sorted(mutant),
        "mutant_types": {k: type(v).__name__ for k, v in mutant.items()},
        "on_disk": Path(shapes.__file__).read_text(),
        "environ": dict(os.environ),
        "readable": readable,
        "clock": time.time(),
    }
    folder.joinpath(f"spy-{out.stem}.json").write_text(json.dumps(seen))
