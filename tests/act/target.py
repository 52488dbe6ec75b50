"""Tiny target repositories for the act scenarios: a run-length codec, one property, one fixture case.

The base commit is `main`; each scenario lays one head commit over it (an honest property test, a
flaky test, a rewritten fixture, ...). Kept small so that a whole lane-B run takes seconds.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tests.gitrepo import Repo, git

ROOT = Path(__file__).resolve().parents[2]

POLICY = """\
[lane]
name = "act-scenario"
max_wall_seconds = 60

[properties]
module = "lanegate.oracles"
max_mutants = 3
# one mutant per property shard in the sharded scenario: the cap alone, no per-function floor
min_mutants_per_function = 0
max_examples = 10
seed = 7
# the sharded scenario's plan job and its unsharded twin must plant the same mutants
mutant_draw = 1

[authorship]
min_replays = 3

[fixtures]
dir = "tests/fixtures"
lockfile = "tests/fixtures.lock.json"

[[fixtures.cases]]
id = "words"
input = "words.in"
expected = "words.expected"
callable = "codec_lib.codec:encode_bytes"
"""

PYPROJECT = """\
[project]
name = "codec-lib"
version = "0.1.0"
requires-python = ">=3.11"

[tool.pytest.ini_options]
pythonpath = ["."]
testpaths = ["tests"]
"""

CODEC = '''\
"""Run-length encoding of letters: "aaab" <-> "3a1b"."""


def encode(text: str) -> str:
    out = []
    start = 0
    while start < len(text):
        end = start
        while end < len(text) and text[end] == text[start]:
            end += 1
        out.append(f"{end - start}{text[start]}")
        start = end
    return "".join(out)


def decode(encoded: str) -> str:
    out = []
    count = ""
    for char in encoded:
        if char.isdigit():
            count += char
        else:
            out.append(char * int(count))
            count = ""
    return "".join(out)


def encode_bytes(data: bytes) -> bytes:
    return encode(data.decode("ascii").strip()).encode("ascii") + b"\\n"
'''

BASE_TEST = """\
from hypothesis import given, settings
from hypothesis import strategies as st

from codec_lib.codec import decode, encode
from lanegate.oracles import round_trip


@settings(max_examples=10, database=None)
@given(st.text(alphabet="abc", max_size=12))
def test_decode_inverts_encode(text):
    round_trip(encode, decode, text)
"""

HONEST_TEST = """\
from hypothesis import given, settings
from hypothesis import strategies as st

from codec_lib.codec import decode, encode
from lanegate.oracles import round_trip

runs = st.lists(st.tuples(st.sampled_from("xyz"), st.integers(1, 30)), max_size=4)


@settings(max_examples=10, database=None)
@given(runs)
def test_decode_inverts_encode_on_long_runs(pairs):
    text = "".join(letter * count for letter, count in pairs)
    round_trip(encode, decode, text)
"""

FLAKY_TEST = """\
from codec_lib.codec import encode

# shared between runs: passes once, fails when the test runs again in the same process
_seen = []


def test_encode_logs_one_result():
    _seen.append(encode("aab"))
    assert _seen == ["2a1b"]
"""

RETRY_JOB = """\
  tests-with-retry:
    if: ${{ github.event_name == 'push' }}
    runs-on: ubuntu-latest
    permissions:
      contents: read
    steps:
      - uses: nick-fields/retry@ce71cc2ab81d554ebbe88c79ab5975992d79ba08 # v3.0.2
        with:
          max_attempts: 3
          timeout_minutes: 5
          command: python -m pytest -q
"""


def caller_workflow(extra_jobs: str = "", **inputs: str) -> str:
    """examples/pull-request.yml with no `install:` (the tests' needs are already importable), and
    `inputs` (python names: property_shards=3 -> `property-shards: 3`) added to its `with:`."""
    text = (ROOT / "examples" / "pull-request.yml").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if "install:" not in line]
    at = next(n for n, line in enumerate(lines) if line.strip() == "with:") + 1
    lines[at:at] = [f"      {key.replace('_', '-')}: {value}" for key, value in inputs.items()]
    return "\n".join(lines) + "\n" + extra_jobs


def _digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def make_base(
    path: Path, *, workflow: str | None = None, extra: dict[str, str] | None = None
) -> tuple[Repo, str]:
    """The base commit on `main` (with `extra` files added or replaced); returns the repo and the
    base sha."""
    repo = Repo(path)
    words_in, words_expected = b"aaabccdddd\n", b"3a1b2c4d\n"
    files: dict[str, str | bytes] = {
        "lanegate.toml": POLICY,
        "pyproject.toml": PYPROJECT,
        "codec_lib/__init__.py": "",
        "codec_lib/codec.py": CODEC,
        "tests/test_codec.py": BASE_TEST,
        "tests/fixtures/words.in": words_in,
        "tests/fixtures/words.expected": words_expected,
        "tests/fixtures.lock.json": json.dumps(
            {
                "schema_version": 1,
                "files": {
                    "tests/fixtures/words.expected": _digest(words_expected),
                    "tests/fixtures/words.in": _digest(words_in),
                },
            },
            indent=2,
        )
        + "\n",
        ".gitignore": ".lanegate/\n__pycache__/\n.hypothesis/\n",
        ".github/workflows/lanegate.yml": workflow or caller_workflow(),
        **(extra or {}),
    }
    for rel, content in files.items():
        repo.write(rel, content)
    sha = repo.commit("codec_lib: run-length codec, a round-trip property, a locked fixture")
    git(path, "branch", "-M", "main")
    return repo, sha


def add_head(repo: Repo, files: dict[str, str | bytes], message: str) -> str:
    """A head commit on branch `agent/change` over main; returns its sha."""
    git(repo.path, "checkout", "-q", "-B", "agent/change", "main")
    for rel, content in files.items():
        repo.write(rel, content)
    return repo.commit(message)


# decode reads multi-digit counts as numbers, and still refuses a letter with no count (the base's
# int('') raised ValueError): a refactor with mutants for the property lane to plant
DIGITS_DECODE = CODEC.replace(
    """    count = ""
    for char in encoded:
        if char.isdigit():
            count += char
        else:
            out.append(char * int(count))
            count = ""
""",
    """    count = None
    for char in encoded:
        if char.isdigit():
            count = int(char) if count is None else count * 10 + int(char)
        elif count is None:
            raise ValueError(f"no count before {char!r}")
        else:
            out.append(char * count)
            count = None
""",
)
DIGITS_TEST = """\
from hypothesis import given, settings
from hypothesis import strategies as st

from codec_lib.codec import decode, encode
from lanegate.oracles import round_trip


@settings(max_examples=10, database=None)
@given(st.sampled_from("pq"), st.integers(1, 120))
def test_decode_reads_counts_of_several_digits(letter, count):
    round_trip(encode, decode, letter * count)
"""

HONEST = {"tests/test_codec_long.py": HONEST_TEST}
# a source change and two new test files: mutants and replays to split across shards
HONEST_CHANGE = {
    "codec_lib/codec.py": DIGITS_DECODE,
    "tests/test_codec_long.py": HONEST_TEST,
    "tests/test_codec_digits.py": DIGITS_TEST,
}
# the honest change whose new test passes only where the caller's `install:` put `six` (which
# lanegate's own environment lacks): in the tests venv that `lanegate install` filled in the sandbox
INSTALLED_CHANGE = {
    **HONEST_CHANGE,
    "tests/test_codec_long.py": HONEST_TEST.replace(
        "    text = ", "    assert six.PY3\n    text = "
    ).replace("from hypothesis import given", "import six\nfrom hypothesis import given"),
}
FLAKY = {"tests/test_codec_long.py": HONEST_TEST, "tests/test_codec_cache.py": FLAKY_TEST}
FIXTURE_REWRITE = {"tests/fixtures/words.expected": b"3a1b2c5d\n"}
# for scenarios about the workflow rather than the code: the lanes have next to nothing to run
DOCS_ONLY = {"README.md": "codec_lib: run-length encoding\n"}
