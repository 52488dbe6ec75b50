"""The read guard: a moved working directory or a replaced reading function, with real pytest runs."""

from __future__ import annotations

import codecs
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lanegate.lanes.property.read_guard import ReadGuard

TESTS = """
from pathlib import Path

import target


def test_reads_its_table():
    assert target.value() == Path("tests/table.txt").read_text()


def test_after():
    assert True
"""


def _run(tmp_path: Path, target: str, guard: bool) -> dict[str, str]:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "table.txt").write_text("right\n")
    (tmp_path / "forged" / "tests").mkdir(parents=True)
    (tmp_path / "forged" / "tests" / "table.txt").write_text("buggy\n")
    (tmp_path / "target.py").write_text(target)
    (tmp_path / "tests" / "test_table.py").write_text(TESTS)
    out = tmp_path / "record.json"
    args = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        "lanegate.lanes.property.plugin",
    ]
    args += ["--lanegate-guard-reads"] if guard else []
    args += ["tests/test_table.py", f"--lanegate-out={out}", "--rootdir", str(tmp_path)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), *sys.path]))
    subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    record = json.loads(out.read_text())
    return {node.split("::")[-1]: entry["outcome"] for node, entry in record["tests"].items()}


BUGGY = "def value():\n    return 'buggy\\n'\n"
CHDIR_AT_IMPORT = BUGGY + "import os\nos.chdir('forged')\n"
PATCH_AT_IMPORT = BUGGY + (
    "import pathlib\n"
    "type.__setattr__(pathlib.Path, 'read_text', lambda self, *a, **k: 'buggy\\n')\n"
)

# red-team pass 9: the standard codec search function swapped for one whose UTF-8 decoder rewrites
# the expected output as the test reads it (the bytes on disk untouched)
CODEC_AT_IMPORT = BUGGY + (
    "import codecs, encodings\n"
    "_u = codecs.lookup('utf-8')\n"
    "class _Decoder(_u.incrementaldecoder):\n"
    "    def decode(self, data, final=False):\n"
    "        return super().decode(data, final).replace('right', 'buggy')\n"
    "def _search(name):\n"
    "    if name.replace('-', '_') in ('utf_8', 'utf8'):\n"
    "        return codecs.CodecInfo(_u.encode, _u.decode, _u.streamreader, _u.streamwriter,\n"
    "                                _u.incrementalencoder, _Decoder, name='utf-8')\n"
    "    return encodings.search_function(name)\n"
    "codecs.unregister(encodings.search_function)\n"
    "codecs.register(_search)\n"
)
ATTACKS = [CHDIR_AT_IMPORT, PATCH_AT_IMPORT, CODEC_AT_IMPORT]
ATTACK_IDS = ["chdir", "patch", "codec"]


@pytest.mark.parametrize("target", ATTACKS, ids=ATTACK_IDS)
def test_code_run_at_import_errors_every_base_test(tmp_path: Path, target: str) -> None:
    assert _run(tmp_path, target, guard=True) == {
        "test_reads_its_table": "error",
        "test_after": "error",
    }


@pytest.mark.parametrize("target", ATTACKS, ids=ATTACK_IDS)
def test_without_the_guard_the_forgery_passes(tmp_path: Path, target: str) -> None:
    assert _run(tmp_path, target, guard=False) == {
        "test_reads_its_table": "passed",
        "test_after": "passed",
    }


def test_a_buggy_module_fails_its_test(tmp_path: Path) -> None:
    assert _run(tmp_path, BUGGY, guard=True) == {
        "test_reads_its_table": "failed",
        "test_after": "passed",
    }


def test_an_honest_module_passes_with_the_guard(tmp_path: Path) -> None:
    honest = "def value():\n    return 'right\\n'\n"
    assert _run(tmp_path, honest, guard=True) == {
        "test_reads_its_table": "passed",
        "test_after": "passed",
    }


def test_a_monkeypatch_undone_by_its_fixture_is_no_problem(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    guard = ReadGuard()
    with monkeypatch.context() as patched:
        patched.chdir(tmp_path)
        patched.setattr(Path, "read_text", lambda self: "")
        assert guard.problem() is not None
    assert guard.problem() is None


def test_a_codec_method_replaced_in_place_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    guard = ReadGuard()
    decoder = codecs.lookup("utf-8").incrementaldecoder
    with monkeypatch.context() as patched:
        patched.setattr(decoder, "_buffer_decode", staticmethod(lambda *a: ("", 0)))
        assert guard.problem() == "the utf-8 codec was replaced in this test process"
    assert guard.problem() is None
