"""Encoding declarations a diff adds or changes, read as Python reads them (issue 47's utf-7 attack:
`+AAo-` in a "comment" decodes to a line break, so a statement stood on a line git calls unchanged)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from lanegate.diff import classify_diff
from lanegate.policy import load_policy
from lanegate.source_encoding import declared, same_lines, scan_diff
from tests.gitrepo import GIT_ENV, Repo

BASE = "def add(a, b):\n    return a + b\n"
# the hidden statement: one comment line to git, two lines to Python
UTF7 = (
    "# coding: utf-7\n"
    "def add(a, b):\n"
    "    return a - b\n"
    "# note+AAo-UNDER_TEST = 'pytest' in __import__('sys').modules\n"
)
TEST = "from pkg.calc import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n"


def test_declared_reads_as_python_does() -> None:
    assert declared(b"x = 1\n") == "utf-8"
    assert declared(b"\xef\xbb\xbfx = 1\n") == "utf-8"
    assert declared(b"# -*- coding: ascii -*-\n") == "ascii"
    assert declared(b"#!/usr/bin/env python\n# coding: latin-1\n") == "iso8859-1"
    assert declared(UTF7.encode()) == "utf-7"
    assert declared(b"x = 1\n\n# coding: utf-7\n") == "utf-8"  # third line: not a declaration
    assert declared(b"# coding: no-such-codec\n").startswith("unreadable: ")


def _repo(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "repo")
    repo.write("lanegate.toml", "[fixtures]\nallow_none = true\n")
    repo.write("pkg/__init__.py", "")
    repo.write("pkg/calc.py", BASE)
    repo.write("pkg/legacy.py", "# coding: latin-1\nNAME = 'caf\xe9'\n".encode("latin-1"))
    repo.write("tests/test_calc.py", TEST)
    repo.commit("base")
    repo.branch("agent")
    return repo


def test_same_lines_is_the_files_own_text_not_the_codecs_name() -> None:
    assert not same_lines(UTF7.encode(), "utf-7")  # +AAo- is a line break git does not see
    assert not same_lines(b"x = 1  # +AAo-\n", "utf-7")  # at a line's end too
    assert same_lines(b"# coding: utf-7\nX = 1\n", "utf-7")
    assert same_lines("N = 'caf\xe9\x85'\r\nM = 1\r".encode("latin-1"), "iso8859-1")
    assert not same_lines(b"\xff\xfe", "utf-8")


def test_scan_reports_files_whose_lines_are_not_gits(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    repo.write("pkg/calc.py", UTF7)
    repo.write("pkg/legacy.py", "# coding: latin-1\nNAME = 'caf\xe8'\n".encode("latin-1"))
    repo.write("pkg/plain.py", "# -*- coding: utf-8 -*-\nX = 1\n")
    repo.write("pkg/new1252.py", "# coding: cp1252\nX = '\u2026'\n".encode("cp1252"))
    repo.write("pkg/latin.py", "# coding: latin-1\nX = '\xe9'\n".encode("latin-1"))
    repo.write("pkg/unknown.py", "# coding: no-such-codec\nX = 1\n")
    repo.commit("agent")
    summary = classify_diff(repo.path, "main", load_policy(repo.path))
    found = {(f.path, f.encoding, f.before) for f in scan_diff(repo.path, summary)}
    assert found == {
        ("pkg/calc.py", "utf-7", "utf-8"),
        ("pkg/unknown.py", "unreadable: unknown encoding: no-such-codec", None),
    }


def test_lanegate_run_fails_the_utf7_attack_with_its_own_rule(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    repo.write("pkg/calc.py", UTF7)
    repo.commit("agent: hide a statement in a comment")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "PYTEST_"))}
    done = subprocess.run(
        [sys.executable, "-m", "lanegate", "run", "--base", "main", "--format", "json", "--quiet"],
        cwd=repo.path,
        env={**env, **GIT_ENV},
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 1, done.stderr
    fails = json.loads(done.stdout)["fails"]
    hits = [f for f in fails if f["rule_id"] == "source-encoding-declared"]
    assert len(hits) == 1 and "pkg/calc.py" in json.dumps(hits[0]), fails
    assert "utf-7" in json.dumps(hits[0])
