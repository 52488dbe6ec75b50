"""No evidence-free pass: a changed computing statement no mutant reaches is named, a change on a
continuation line gets its statement's mutants, and a source file diffed as binary is named whole."""

from __future__ import annotations

from collections.abc import Callable

from lanegate.diff import classify_diff
from lanegate.lanes.property.canary import plan_canaries
from lanegate.lanes.property.plant import plan_from_summary, specs_for_file, statement_lines
from lanegate.lanes.property.unmutated import unmutated_in_source, unmutated_lines
from lanegate.policy import Policy
from tests.gitrepo import Repo

DIGEST = "sha256:" + "0" * 64


def test_a_change_on_a_continuation_line_gets_the_statements_mutants() -> None:
    source = b"def f(a, b):\n    return (a +\n            b)\n"
    assert specs_for_file("m.py", source, frozenset({3}), DIGEST, 0) == []
    grown = statement_lines(source, frozenset({3}))
    assert grown == frozenset({2, 3})
    assert {s.line for s in specs_for_file("m.py", source, grown, DIGEST, 0)} == {2}


def test_computing_statements_with_operators_are_not_named() -> None:
    source = b"def f(a, b):\n    x = a + b\n    if x > 2:\n        return x\n    return -x\n"
    assert unmutated_in_source("m.py", source, frozenset(range(1, 6))) == []


def test_a_module_level_alias_is_named_and_metadata_and_logging_are_not() -> None:
    source = (
        b"import logging\nlog = logging.getLogger(__name__)\n__all__ = ['f']\n"
        b"def f(x):\n    print(x)\n    return x * 2\n\n\nhelper = f\n"
    )
    found = unmutated_in_source("m.py", source, frozenset(range(1, 10)))
    assert [(u.line, u.path) for u in found] == [(9, "m.py")]
    assert "no mutation operator" in found[0].what


def test_a_source_file_marked_binary_is_named(make_repo: Callable[[str], Repo]) -> None:
    repo = make_repo("r")
    repo.write("calc.py", "def add(a, b):\n    return a + b\n")
    repo.commit("base")
    repo.branch("agent")
    repo.write(".gitattributes", "calc.py -diff\n")
    repo.write("calc.py", "def add(a, b):\n    return a + b + 1\n")
    repo.commit("agent")
    summary = classify_diff(repo.path, "main", Policy())
    assert plan_from_summary(repo.path, summary, Policy(), draw=0) == []
    gaps = unmutated_lines(repo.path, summary, Policy())
    assert [(g.path, g.line) for g in gaps] == [("calc.py", 1)]
    assert "binary" in gaps[0].what


def test_a_source_file_replaced_by_a_symlink_is_named(make_repo: Callable[[str], Repo]) -> None:
    repo = make_repo("r")
    repo.write("calc.py", "def add(a, b):\n    return a + b\n")
    repo.commit("base")
    repo.branch("agent")
    repo.write("tests/impl.py", "def add(a, b):\n    return a + b + 1\n")
    (repo.path / "calc.py").unlink()
    (repo.path / "calc.py").symlink_to("tests/impl.py")
    repo.commit("agent")
    summary = classify_diff(repo.path, "main", Policy())
    gaps = unmutated_lines(repo.path, summary, Policy())
    assert [(g.path, g.line) for g in gaps] == [("calc.py", 1)]
    assert "symlink" in gaps[0].what


def test_source_that_imports_from_the_test_folder_is_named() -> None:
    source = b"from tests.data.impl import decode  # noqa\nimport tests.helpers as h\nimport json\n"
    found = unmutated_in_source("lib/codec.py", source, frozenset({1, 2, 3}))
    assert [u.line for u in found] == [1, 2]
    assert all("test folder" in u.what for u in found)


def test_a_relative_import_from_the_test_folder_is_named() -> None:
    # red-team pass 9: `from .tests.codec_impl import decode` in demo_lib/codec.py passed the gate
    source = (
        b"from .tests.codec_impl import decode\nfrom . import tests\nfrom ..test import x\n"
        b"from pkg import tests as t\nfrom . import util\nfrom .testing import y\n"
    )
    found = unmutated_in_source("lib/codec.py", source, frozenset(range(1, 7)))
    assert [u.line for u in found] == [1, 2, 3, 4]
    assert all("test folder" in u.what for u in found)


def test_an_operator_free_line_of_a_spread_statement_is_named() -> None:
    # the `*` line carries the statement's mutants; the changed `char.strip()` line carries none
    source = b"def f(out, char, n):\n    out.append(\n        char.strip()\n        * n\n    )\n"
    found = unmutated_in_source("m.py", source, frozenset({2, 3, 4, 5}))
    assert [(u.line, "spread over several lines" in u.what) for u in found] == [(3, True)]
    assert unmutated_in_source("m.py", source, frozenset({4})) == []  # that line is unchanged


def test_a_reflowed_statement_with_operators_on_its_computing_lines_is_not_named() -> None:
    source = b"def f(out, char, n):\n    out.append(\n        char\n        * int(n)\n    )\n"
    assert unmutated_in_source("m.py", source, frozenset({2, 3, 4, 5})) == []


def test_a_changed_string_holding_code_is_named_and_text_is_not() -> None:
    source = (
        b"RUN = exec if 1 else None\n"
        b'RUN(("""\ndef decode(s):\n    return s[:-1]\n""", None)[0], {})\n'
        b'GREETING = ("hello, world", 0)[0]\n'
        b'ENCODING = ("utf-8", 0)[0]\n'
    )
    found = unmutated_in_source("m.py", source, frozenset(range(1, 8)))
    assert [(u.line, "holds Python code" in u.what) for u in found] == [(2, True)]


def test_a_latin1_module_is_planted_in_on_lines_that_hold_non_ascii_text(
    make_repo: Callable[[str], Repo],
) -> None:
    # red-team pass 7: its mutants all errored; then a changed line holding a non-ASCII character
    # lost its mutants (columns off by a byte) and crashed the canary plan
    declared = b"# -*- coding: latin-1 -*-\n"
    repo = make_repo("r")
    repo.write("calc.py", declared + b"def f(x):\n    return len('\xe9') + x\n")
    repo.commit("base")
    repo.branch("agent")
    repo.write("calc.py", declared + b"def f(x):\n    return len('\xe9\xe9') + x * 2\n")
    repo.commit("agent")
    summary = classify_diff(repo.path, "main", Policy())
    specs = plan_from_summary(repo.path, summary, Policy(), draw=0)
    # operators and constants after the literal, each planted on its own text (which of them the
    # per-line cap keeps is the draw's)
    originals = {s.original for s in specs if s.operator != "revert"}
    assert len(originals & {"+", "*", "2"}) >= 2
    assert originals <= {"+", "*", "2", "len('\xe9\xe9') + x * 2"}
    # and the base's version of f, decoded by the module's own declaration
    (revert,) = [s for s in specs if s.operator == "revert"]
    assert revert.replacement == "def f(x):\n    return len('\xe9') + x\n"
    canaries = plan_canaries(repo.path, summary, Policy(), 7, len(specs))
    assert canaries and all(c.line == 3 for c in canaries)
    assert unmutated_lines(repo.path, summary, Policy()) == ()


def test_a_changed_default_argument_that_calls_something_is_named() -> None:
    # red-team pass 8: `def _t(_x=type.__setattr__(...))` ran at import with no mutant asked of it
    source = (
        b"import pathlib\n\n\ndef f(x, _hook=type.__setattr__(pathlib.Path, 'name', None)):\n"
        b"    return x + 1\n\n\ndef g(x, limit=10, key=None):\n    return x * limit\n"
    )
    found = unmutated_in_source("m.py", source, frozenset(range(1, 11)))
    assert [(u.line, "default argument" in u.what) for u in found] == [(4, True)]


def test_lines_a_killed_revert_answers_for_are_not_named_and_what_no_revert_judges_is() -> None:
    """An operator-free line of a changed function whose revert a test killed has its evidence;
    an import from the test folder and code in a string stay named."""
    source = (
        b"def f(out, char, n):\n    out.append(\n        char.strip()\n        * n\n    )\n"
        b"from tests.impl import g\n"
        b'RUN = exec if 1 else None\nRUN("def h():\\n    return 1\\n", {})\n'
    )
    changed = frozenset(range(1, 9))
    named = unmutated_in_source("m.py", source, changed)
    assert 3 in {u.line for u in named}
    kept = unmutated_in_source("m.py", source, changed, reverted=frozenset(range(1, 9)))
    assert sorted(u.line for u in kept) == [6, 8]
    assert "test folder" in kept[0].what and "holds Python code" in kept[1].what
