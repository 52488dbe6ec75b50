"""Hostile heads against the behaviour diff, each in a module of its own, in one real repository
compared in the real sandbox: none can read the base or the comparison's answers, forge a "same",
hang the engine, or blow up the answer."""

from __future__ import annotations

import pytest

from lanegate.lanes.property.behaviour import FunctionBehaviour
from tests.unit.property.behaviour.repos import build, compare, same_place

MARKER = "base-only-marker-5c1e0a"

BASE = {
    "pkg/__init__.py": "",
    "pkg/peek.py": f"# {MARKER}\n\ndef double(x: int) -> int:\n    return 2 * x\n",
    "pkg/forge.py": "def triple(x: int) -> int:\n    return 3 * x\n\n\n"
    "def quad(x: int) -> int:\n    return 4 * x\n",
    "pkg/spin.py": "def still(x: int) -> int:\n    return x\n",
    "pkg/sleepy.py": "def wait(x: int) -> int:\n    return x\n",
    "pkg/huge.py": "def make(n: int) -> list:\n    return [n]\n\n\ndef loop(n: int) -> list:\n    return [[n]]\n",
}

# every path the head process might find the base's code or answers in: it answers wrongly
# (x * 2 + 1) the moment it finds one, so a leak shows as a difference
PEEK = f'''import os
import sys

MARKER = "{MARKER[:10]}" + "{MARKER[10:]}"
ENVIRONMENT = tuple(os.path.realpath(p) for p in {{sys.prefix, sys.base_prefix}})
ROOTS = ("/tmp", "/run", "/var/tmp", "/dev/shm", os.getcwd(), os.path.expanduser("~"))


def _leaks():
    found = []
    answers = []
    if os.path.exists(os.path.join(os.getcwd(), ".git")):
        found.append(".git")
    seen = 0
    for root in ROOTS:
        for folder, dirs, files in os.walk(root):
            # the interpreter's own environment (lanegate's, wherever its venv lies) holds
            # neither the base nor answers; a venv under /tmp would otherwise flood the count
            if os.path.realpath(folder).startswith(ENVIRONMENT):
                dirs[:] = []
                continue
            for name in files:
                seen += 1
                if seen > 5000:
                    return found + ["too many files to look through"]
                path = os.path.join(folder, name)
                try:
                    with open(path, "rb") as handle:
                        data = handle.read(1 << 20)
                except OSError:
                    continue
                if MARKER.encode() in data:
                    found.append(path)
                if name == "answers.jsonl":
                    answers.append(path)
    # its own answers file it may see; a second one would be another process's
    return found + (answers if len(answers) > 1 else [])


def double(x: int) -> int:
    return 2 * x + (1 if _leaks() else 0)
'''

# a head that answers wrongly, and tries to make its answers look like the base's: fake records
# on stdout and stderr, and appended to every answers file it can find
FORGE = """import glob
import json
import os
import sys


def _fake(value):
    return json.dumps({"i": 0, "calls": [{"ok": value}]})


def triple(x: int) -> int:
    print(_fake(3 * x))
    print(_fake(3 * x), file=sys.stderr)
    return 3 * x + 1


def quad(x: int) -> int:
    for root in ("/tmp", os.getcwd()):
        for path in glob.glob(root + "/**/*.json*", recursive=True):
            try:
                with open(path, "a") as handle:
                    handle.write(_fake(4 * x) + "\\n")
            except OSError:
                pass
    return 4 * x + 1
"""

SLEEPY = "import time\n\n\ndef wait(x: int) -> int:\n    while True:\n        time.sleep(1)\n"

HUGE = """def make(n: int) -> list:
    return list(range(10**6))


def loop(n: int) -> list:
    cycle = []
    cycle.append(cycle)
    return cycle
"""

# a module that never finishes importing at head: its process is stopped at its wall limit
SPIN = (
    "import time\n\nwhile True:\n    time.sleep(0.1)\n\n\ndef still(x: int) -> int:\n    return x\n"
)

HEAD = {
    "pkg/peek.py": PEEK,
    "pkg/forge.py": FORGE,
    "pkg/sleepy.py": SLEEPY,
    "pkg/huge.py": HUGE,
    "pkg/spin.py": SPIN,
}


@pytest.fixture(scope="module")
def found(tmp_path_factory: pytest.TempPathFactory) -> dict[str, FunctionBehaviour]:
    path = tmp_path_factory.mktemp("hostile") / "repo"
    repo, base, head = build(path, BASE, HEAD)
    functions = [
        *same_place("pkg/peek.py", "double"),
        *same_place("pkg/forge.py", "triple", "quad"),
        *same_place("pkg/sleepy.py", "wait"),
        *same_place("pkg/huge.py", "make", "loop"),
        *same_place("pkg/spin.py", "still"),
    ]
    return compare(repo, base, head, functions, max_examples=20)


def test_head_cannot_read_the_base_or_its_answers(found: dict[str, FunctionBehaviour]) -> None:
    result = found["double"]
    assert result.verdict == "same", result
    assert result.inputs_tried >= 20


def test_records_printed_to_stdout_and_stderr_are_not_answers(
    found: dict[str, FunctionBehaviour],
) -> None:
    result = found["triple"]
    assert result.verdict == "differs", result
    assert "triple(0): base 0, head 1" in [str(d) for d in result.differences]


def test_records_written_into_files_never_make_a_same(found: dict[str, FunctionBehaviour]) -> None:
    result = found["quad"]
    assert result.verdict == "not-compared", result
    assert result.reason.startswith("the head's answers cannot be read: "), result.reason


def test_a_head_that_never_finishes_importing_is_stopped(
    found: dict[str, FunctionBehaviour],
) -> None:
    result = found["still"]
    assert result.verdict == "not-compared", result
    assert result.reason.startswith("the head's answers cannot be read: "), result.reason
    assert result.reason.endswith(" s)") and "(did not finish in " in result.reason


def test_a_head_that_sleeps_forever_is_timed_out(found: dict[str, FunctionBehaviour]) -> None:
    result = found["wait"]
    assert result.verdict == "not-compared", result
    assert result.reason.startswith("head: timed out on wait("), result.reason


def test_a_huge_answer_is_bounded(found: dict[str, FunctionBehaviour]) -> None:
    result = found["make"]
    assert result.verdict == "differs", result
    for difference in result.differences:
        assert len(difference.head) <= 200 and difference.head.endswith("...")
        assert difference.base.startswith("[")


def test_a_self_referential_answer_is_encoded(found: dict[str, FunctionBehaviour]) -> None:
    result = found["loop"]
    assert result.verdict == "differs", result
    assert "loop(0): base [[0]], head [<cycle>]" in [str(d) for d in result.differences]
