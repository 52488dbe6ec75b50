"""The two ways a child runs a mutant: swapping one function's code, or an import hook for the file."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from lanegate.lanes.property.hotpatch import swap_function_code
from lanegate.lanes.property.importhook import install_mutant

SOURCE = "LIMIT = 10\n\n\ndef f(x):\n    return x + 1\n\n\nclass C:\n    def m(self, x):\n        return x * 2\n"


@pytest.fixture
def module_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "lg_target_mod.py").write_text(SOURCE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("lg_target_mod", None)
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "MutantFinder"]


def test_swap_reaches_module_attribute_and_from_import_alias(module_dir: Path) -> None:
    mod = importlib.import_module("lg_target_mod")
    alias = mod.f
    mutated = SOURCE.replace("x + 1", "x - 1").replace("x * 2", "x * 3")
    assert swap_function_code(module_dir / "lg_target_mod.py", mutated, "f", 4)
    assert swap_function_code(module_dir / "lg_target_mod.py", mutated, "C.m", 9)
    assert mod.f(5) == 4 and alias(5) == 4 and mod.C().m(5) == 15
    # module-level code cannot be swapped: the caller falls back to the import hook
    assert not swap_function_code(module_dir / "lg_target_mod.py", mutated, "<module>", 0)


def test_import_hook_serves_the_mutant_without_touching_the_file(module_dir: Path) -> None:
    importlib.import_module("lg_target_mod")
    mutated = SOURCE.replace("LIMIT = 10", "LIMIT = 11")
    finder = install_mutant(module_dir / "lg_target_mod.py", mutated)
    mod = importlib.import_module("lg_target_mod")
    assert mod.LIMIT == 11 and finder.served == ["lg_target_mod"]
    assert (module_dir / "lg_target_mod.py").read_text(encoding="utf-8") == SOURCE


LATIN1 = b"# -*- coding: latin-1 -*-\nWORD = 'caf\xe9'\n\n\ndef f(x):\n    return WORD + x\n"


@pytest.fixture
def latin1_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "lg_latin1_mod.py").write_bytes(LATIN1)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("lg_latin1_mod", None)
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "MutantFinder"]


def test_a_mutant_of_a_latin1_file_keeps_its_coding_declaration(latin1_dir: Path) -> None:
    # the lane holds a file's source as its bytes decoded as UTF-8 with surrogateescape
    mutated = LATIN1.replace(b"WORD + x", b"x + WORD").decode("utf-8", "surrogateescape")
    mod = importlib.import_module("lg_latin1_mod")
    assert swap_function_code(latin1_dir / "lg_latin1_mod.py", mutated, "f", 5)
    assert mod.f("!") == "!caf\u00e9"
    sys.modules.pop("lg_latin1_mod")
    install_mutant(latin1_dir / "lg_latin1_mod.py", mutated)
    again = importlib.import_module("lg_latin1_mod")
    assert again.WORD == "caf\u00e9" and again.f("?") == "?caf\u00e9"
