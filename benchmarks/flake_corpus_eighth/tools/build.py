"""Generate cases/ and tools/cases.json from the topic sources.

Which twin of a topic is flaky is drawn with random.Random(SEED), one draw per topic in topic order.
Files named *.sqlite are SQL scripts that are built into sqlite databases. File names may contain a
sub-directory (e.g. CID_data/CID_tariffs.csv); the directory is created.
Lines ending in '#@F' appear only in the flaky twin, '#@S' only in the stable twin; 'CID' -> case id.
Every case also gets a minimal pytest.ini (PYTEST_INI), added for flake-corpus-7 (kept in -8): it makes the case directory
its own rootdir, so the pytest configuration of an enclosing repository (e.g. addopts such as -n for
pytest-xdist in a pyproject.toml further up) does not apply to the case.
"""
import json
import pathlib
import random
import re
import shutil
import sqlite3
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
SEED = 2026120708
sys.path.insert(0, str(HERE))
import topics_env, topics_host, topics_state  # noqa: E402

TOPICS = topics_state.T + topics_env.T + topics_host.T
PYTEST_INI = """# Makes this case directory its own pytest rootdir (no settings from enclosing directories).
[pytest]
"""
DROPPED = set(json.loads((HERE / "dropped.json").read_text())) if (HERE / "dropped.json").exists() else set()


def variant(text, flaky, cid):
    out = []
    for line in text.splitlines():
        m = re.search(r"\s*#@([FS])\s*$", line)
        if m:
            if (m.group(1) == "F") != flaky:
                continue
            line = line[: m.start()]
        out.append(line)
    return "\n".join(out).lstrip("\n").replace("CID", cid) + "\n"


def main():
    rng = random.Random(SEED)
    cases = []
    shutil.rmtree(ROOT / "cases", ignore_errors=True)
    for t in TOPICS:
        flaky_suffix = "a" if rng.random() < 0.5 else "b"
        if t["topic"] in DROPPED:
            continue
        for suffix in "ab":
            cid = f"{t['topic']}_{suffix}"
            flaky = suffix == flaky_suffix
            d = ROOT / "cases" / cid
            d.mkdir(parents=True)
            (d / "pytest.ini").write_text(PYTEST_INI)
            for name, text in t["files"].items():
                target = d / name.replace("CID", cid)
                target.parent.mkdir(parents=True, exist_ok=True)  # data files in sub-directories
                if name.endswith(".sqlite"):  # stored as an SQL script, built into a database file
                    conn = sqlite3.connect(target)
                    conn.executescript(variant(text, flaky, cid))
                    conn.commit()
                    conn.close()
                else:
                    target.write_text(variant(text, flaky, cid))  # (parents created above)
            cases.append(dict(
                id=cid, file=f"cases/{cid}/test_{cid}.py", node_id=f"test_{cid}.py::{t['test']}",
                flaky=flaky, cls=t["cls"],
                trigger=t["trigger"].replace("CID", cid) if flaky else f"none (robust to: {t['robust']})",
                pair=f"{t['topic']}_{'b' if suffix == 'a' else 'a'}", topic=t["topic"],
                conds=t.get("conds", [])))
    (HERE / "cases.json").write_text(json.dumps(cases, indent=1))
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
