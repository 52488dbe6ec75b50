"""Generate the case directories from the topic definitions (tools/topics_*.py)."""
import json
import random
import re
import shutil
import textwrap
from pathlib import Path

import topics_conc, topics_hash, topics_order, topics_random, topics_time

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "cases"
# dropped after measurement: their flaky variant never failed in any measured run on this machine
DROPPED = {"health_server_ready", "profile_fetch_async", "async_save_task"}
ALL = topics_order.TOPICS + topics_random.TOPICS + topics_hash.TOPICS + topics_time.TOPICS + topics_conc.TOPICS


def render(files, case_id):
    helpers = [n[:-3] for n in files if n.endswith(".py") and n not in ("TEST", "conftest.py") and "/" not in n]
    ren = {h: (f"{case_id}_app" if h == "appmod" else f"{case_id}_{h}") for h in helpers}
    out = {}
    for name, text in files.items():
        text = textwrap.dedent(text).lstrip("\n")
        for old, new in ren.items():
            text = re.sub(rf"\b{old}\b", new, text)
        if name == "TEST":
            name = f"test_{case_id}.py"
        elif name[:-3] in ren:
            name = ren[name[:-3]] + ".py"
        out[name] = text
    return out


def main():
    rng = random.Random(20261201)
    if CASES.exists():
        shutil.rmtree(CASES)
    meta = []
    seen = set()
    for t in ALL:
        if t["topic"] in DROPPED:
            rng.choice("ab")  # keep the a/b draw of later topics unchanged
            continue
        assert t["topic"] not in seen, t["topic"]
        seen.add(t["topic"])
        flaky_suffix = rng.choice("ab")
        for suffix in "ab":
            is_flaky = suffix == flaky_suffix
            case_id = f"{t['topic']}_{suffix}"
            files = dict(t["common"])
            files.update(t["flaky"] if is_flaky else t["stable"])
            d = CASES / case_id
            for name, text in render(files, case_id).items():
                p = d / name
                p.parent.mkdir(parents=True, exist_ok=True)
                p.write_text(text)
            test_file = f"test_{case_id}.py"
            node = t.get("node_param", t["node"])
            meta.append({
                "id": case_id, "topic": t["topic"], "file": f"cases/{case_id}/{test_file}",
                "node_id": f"{test_file}::{node}", "flaky": is_flaky, "class": t["cls"],
                "trigger": t["trigger"] if is_flaky else f"none (robust to: {t['robust']})",
                "pair": f"{t['topic']}_{'b' if suffix == 'a' else 'a'}",
            })
    (ROOT / "tools" / "cases.json").write_text(json.dumps(meta, indent=1))
    print(len(meta), "cases")


if __name__ == "__main__":
    main()
