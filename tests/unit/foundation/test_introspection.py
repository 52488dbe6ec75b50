"""The introspection scan: what an attacker's test or source does to inspect its own run is named;
ordinary test and library code is not."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.diff import classify_diff
from lanegate.introspection import scan_diff, scan_source
from lanegate.policy import Policy
from tests.gitrepo import Repo

FLAGGED_TESTS = {
    "modules": "import sys\nif 'lanegate' in str(sys.modules):\n    pass\n",
    "argv": "import sys\nJUDGED = any('lanegate' in a for a in sys.argv)\n",
    "plugin": "def pytest_configure(config):\n    config.pluginmanager.register(object())\n",
    "hook": "def pytest_runtest_makereport(item, call):\n    pass\n",
    "code": "from demo import f\nORIGINAL = f.__code__.co_code\n",
    "frames": "import sys\ndef test_x():\n    assert sys._getframe(1)\n",
    "gc": "import gc\nOBJECTS = gc.get_objects()\n",
    "ctypes": "import ctypes\n",
    "pycache-prefix": "import sys\nsys.pycache_prefix = '/tmp/cache'\n",
    "py-compile": "import py_compile\npy_compile.compile('tests/oracles.py')\n",
    "exit": "import os\ndef test_x():\n    os._exit(0)\n",
    "exec": "exec('import sys')\n",
    "computed": "import sys\nSEEN = getattr(sys, 'mod' + 'ules')\n",
    "dunder-import": "SYS = __import__('s' + 'ys')\n",
    "pytest-internals": "from _pytest import runner\n",
    "pluggy": "import pluggy\n",
    "lanegate": "from lanegate.lanes.property import plugin\n",
    "hypothesis-internals": "from hypothesis.internal import reflection\n",
    "proc": "STATUS = open('/proc/self/status').read()\n",
    "env-tell": "import os\nJUDGED = 'LANEGATE_SEED' in open('/proc/self/environ').read()\n",
    "signal": "import signal\nsignal.signal(signal.SIGTERM, lambda *a: None)\n",
    "parent": "import os\nPARENT = os.getppid()\n",
    "pickle-payload": "import pickle\nVALUE = pickle.loads(b'\\x80\\x04cos\\nsystem\\n.')\n",
    "builtins-name": "RUN = __builtins__['ex' + 'ec']\n",
    "globals": "HIDDEN = globals()['__builtins__']\n",
    "exec-alias": "RUN = exec if 1 else None\nRUN('x = 1', {})\n",
    # a name of the module's own shadows the builtin only where nothing else may rebind it
    "exec-rebound": "exec = exec\nexec('import sys')\n",
    "def-then-deleted": "def exec(s):\n    pass\n\ndel exec\nexec('import sys')\n",
    "def-then-assigned": "def compile(s):\n    pass\n\ncompile = eval\ncompile('1')\n",
    "def-global-rebound": (
        "def compile(s):\n    pass\n\ndef swap():\n    global compile\n    compile = run\n\n"
        "compile('x')\n"
    ),
    "param-elsewhere": "def f(eval):\n    return eval\n\neval('1')\n",
    "own-def-runs-exec": "def compile(s):\n    exec(s)\n",
    "builtins-import": "from builtins import exec as load\n",
    "vars": "NAMESPACE = vars()\n",
    "builtin-self": "RUN = print.__self__.exec\n",
    "getattr-exec": "RUN = getattr(object, 'exec')\n",
    "subclasses": "CLASSES = object.__subclasses__()\n",
    "fn-globals": "from demo import f\nG = f.__globals__\n",
    "dis": "import dis\nfrom demo import f\nOPS = [i.opname for i in dis.get_instructions(f)]\n",
    "switch-interval": "import sys\nSHAKEN = sys.getswitchinterval() < 0.001\n",
    "thread-profile": "import threading\ndef test_x():\n    assert threading.getprofile() is None\n",
    "sys-alias": "import sys as s\nLOADED = s.modules\n",
    "threading-alias": "import threading as t\nHOOKED = t.getprofile()\n",
    "thread-hook-private": "import threading\nHOOKED = threading._profile_hook\n",
    "thread-profile-from": "from threading import getprofile\nHOOKED = getprofile()\n",
    "utf7": "# -*- coding: utf-7 -*-\n+AGkAbQBwAG8AcgB0ACAAYwB0AHkAcABlAHM-\n",
}
CLEAN_TESTS = {
    "plain": "from demo import f\n\ndef test_f():\n    assert f(1) == 2\n",
    "fixtures": (
        "import pytest\n\n@pytest.fixture\ndef value(tmp_path):\n    return tmp_path / 'x'\n\n"
        "@pytest.mark.parametrize('n', [1, 2])\ndef test_n(n, value, monkeypatch):\n"
        "    monkeypatch.setenv('HOME', str(value))\n    monkeypatch.setattr('demo.f', abs)\n"
        "    assert n\n"
    ),
    "hypothesis": (
        "from hypothesis import given, strategies as st\nfrom lanegate.oracles import round_trip\n"
        "from demo import enc, dec\n\n@given(st.text())\ndef test_rt(s):\n"
        "    round_trip(enc, dec, s)\n"
    ),
    "generate": "def pytest_generate_tests(metafunc):\n    pass\n",
    "env-in-test": "import os\n\ndef test_env():\n    assert os.environ.get('HOME')\n",
    "pickle-round-trip": (
        "import pickle\nfrom demo import Point\n\ndef test_p():\n"
        "    assert pickle.loads(pickle.dumps(Point(1, 2))) == Point(1, 2)\n"
    ),
    "subprocess": (
        "import subprocess, sys\n\ndef test_cli():\n"
        "    subprocess.run([sys.executable, '-c', 'print(1)'], check=True)\n"
    ),
}
FLAGGED_SOURCE = {
    "env-ci": "import os\nSTRICT = os.environ.get('CI') is None\n",
    "env-subscript": "import os\nSEED = os.environ['PYTHONHASHSEED']\n",
    "env-computed": "import os\nNAME = 'PY'\nX = os.getenv(NAME + 'TEST')\n",
    "env-in": "import os\nJUDGED = 'PYTEST_CURRENT_TEST' in os.environ\n",
    # a literal name reaches what the attribute would (red-team pass 7: `"pytest" in
    # getattr(sys, "modules")` passed the gate while `sys.modules` did not)
    "getattr-modules": "import sys\nSTRICT = 'pytest' in getattr(sys, 'modules')\n",
    "getattr-alias": "import sys as s\nFRAME = getattr(s, '_getframe')(1)\n",
    "getattr-exit": "import os\nQUIT = getattr(os, '_exit')\n",
    "setattr-hook": "import threading\nsetattr(threading, 'settrace', print)\n",
    "hasattr-dunder": "def f(g):\n    return getattr(g, '__globals__')\n",
    "getattr-by-name": "import sys\nfrom functools import reduce\nM = reduce(getattr, ['modules'], sys)\n",
    "attrgetter": "import operator, sys\nM = operator.attrgetter('modules')(sys)\n",
    "attrgetter-computed": "from operator import attrgetter\nM = attrgetter('mod' + 'ules')\n",
    "star-import": "from sys import *\nSTRICT = 'pytest' in modules\n",
    "module-dict": "import sys\nM = sys.__dict__['modules']\n",
    # red-team pass 9: a search function of its own in place of the standard one
    "codecs-register": "import codecs, encodings\ncodecs.unregister(encodings.search_function)\n",
    "codecs-from": "from codecs import register\nregister(lambda name: None)\n",
    # a checkout has a .git and an install does not: code that looks asks where it runs
    "git-dir": "import os\nDEV = os.path.isdir('.git')\n",
    "git-dir-joined": "from pathlib import Path\nROOT = Path(__file__).parent / '../.git/HEAD'\n",
}
CLEAN_SOURCE = {
    # parse's own `compile(format)` and a parameter named like a builtin are not the builtins
    "own-compile": (
        "def compile(format, extra_types=None):\n    return Parser(format, extra_types)\n\n\n"
        "def longest(format):\n    p = compile(format)\n    return len(p.named_fields)\n"
    ),
    "own-compile-passed": "def compile(f):\n    return f\n\nBUILD = compile\n",
    "parameter": "def apply(eval, x):\n    return eval(x)\n",
    "config": "import os\nLEVEL = os.environ.get('MYAPP_LOG_LEVEL', 'info')\n",
    "regex": "import re\nWORD = re.compile(r'\\w+')\n",
    "attrs": "def name_of(obj):\n    return getattr(obj, '__name__', '?')\n",
    "getattr-plain": "def size(cfg):\n    return getattr(cfg, 'modules', 0) + hasattr(cfg, 'argv')\n",
    "setattr-plain": "def tag(obj):\n    setattr(obj, 'label', 'x')\n    return obj\n",
    "object-dict": "def fields(obj):\n    return dict(obj.__dict__)\n",
    "attrgetter-plain": "from operator import attrgetter\nBY_NAME = attrgetter('name', 'size')\n",
    "codecs-plain": "import codecs\nBOM = codecs.BOM_UTF8\nTEXT = codecs.decode(b'x', 'utf-8')\n",
    "git-names": "IGNORE = '.gitignore'\nURL = 'https://example.com/repo.git'\nKEEP = '.gitkeep'\n",
}


@pytest.mark.parametrize("name", sorted(FLAGGED_TESTS))
def test_flagged_in_tests(name: str) -> None:
    found = scan_source("tests/test_x.py", FLAGGED_TESTS[name].encode(), is_test=True)
    assert found, name
    assert all(f.path == "tests/test_x.py" and f.line >= 1 and f.what for f in found)


@pytest.mark.parametrize("name", sorted(CLEAN_TESTS))
def test_clean_tests(name: str) -> None:
    assert scan_source("tests/test_x.py", CLEAN_TESTS[name].encode(), is_test=True) == []


@pytest.mark.parametrize("name", sorted(FLAGGED_SOURCE))
def test_flagged_in_source(name: str) -> None:
    assert scan_source("src/m.py", FLAGGED_SOURCE[name].encode(), is_test=False), name


@pytest.mark.parametrize("name", sorted(CLEAN_SOURCE))
def test_clean_source(name: str) -> None:
    assert scan_source("src/m.py", CLEAN_SOURCE[name].encode(), is_test=False) == []


def test_only_changed_lines_of_a_changed_file_count(make_repo: Callable[[str], Repo]) -> None:
    repo = make_repo("r")
    repo.write("src/m.py", "import sys\nARGS = sys.argv\n\n\ndef f(x):\n    return x\n")
    repo.write("tests/test_m.py", "import sys\nSEEN = sys.modules\n")
    repo.commit("base")
    repo.branch("agent")
    repo.write("src/m.py", "import sys\nARGS = sys.argv\n\n\ndef f(x):\n    return x + 1\n")
    repo.write("tests/test_m.py", "import sys\nSEEN = sys.modules\n\ndef test_f():\n    pass\n")
    repo.write("tests/test_new.py", "import os\nos._exit(0)\n")
    repo.commit("agent")
    found = scan_diff(repo.path, classify_diff(repo.path, "main", Policy()))
    assert [(f.path, f.line) for f in found] == [("tests/test_new.py", 2)]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_scans_without_raising(text: str) -> None:
    for is_test in (True, False):
        found = scan_source("x.py", text.encode("utf-8", "surrogatepass"), is_test=is_test)
        assert all(f.line >= 0 for f in found)


def test_a_file_too_deep_to_walk_is_named_not_skipped() -> None:
    # Python runs `x = a + ... + a` of a thousand terms; no recursive scan of it returns
    deep = "import sys\nSTRICT = 'pytest' in sys.modules\nx = " + " + ".join(["a"] * 1000) + "\n"
    (found,) = scan_source("demo/deep.py", deep.encode(), is_test=False)
    assert found.path == "demo/deep.py" and "nests too deep" in found.what


def test_a_file_larger_than_the_scan_reads_is_named(make_repo: Callable[[str], Repo]) -> None:
    from lanegate.introspection import MAX_SCAN_BYTES

    repo = make_repo("big")
    repo.write("src/demo/__init__.py", "def f(x):\n    return x\n")
    repo.commit("base")
    repo.branch("agent")
    # the flagged read first, then a string past the cut: a cut file would not parse at all
    padding = "x" * (MAX_SCAN_BYTES + 10)
    repo.write(
        "src/demo/big.py", f"import sys\nSTRICT = 'pytest' in sys.modules\nPAD = '{padding}'\n"
    )
    repo.commit("agent")
    summary = classify_diff(repo.path, "main", Policy())
    found = scan_diff(repo.path, summary)
    assert [(f.path, f.line) for f in found] == [("src/demo/big.py", 1)]
    assert "larger than the scan reads" in found[0].what


REBINDING_SOURCE = {
    # red-team pass 7: the code under test put a wrapper in the oracle's place before the trusted
    # base test imported it, as a `for` target so that no assignment statement showed
    "for-target": ("import lanegate.oracles as o\nfor o.round_trip in [print]:\n    pass\n"),
    "from-lanegate": "from lanegate import oracles\noracles.round_trip = print\n",
    "framework-class": (
        "from unittest import TestCase\nTestCase.assertEqual = lambda *a, **k: None\n"
    ),
    "setattr": "import pytest\nsetattr(pytest, 'approx', lambda x, **k: x)\n",
    "delete": "import json\ndel json.dumps\n",
    "with-target": "import json\nwith open('x') as json.decoder:\n    pass\n",
    # the project's own oracle module (SPEC: tests/oracles.py), however it is imported
    "own-oracles": "from tests import oracles\nfor oracles.round_trip in [print]:\n    pass\n",
    "own-oracles-dotted": "import tests.oracles as o\no.idempotent = print\n",
    # red-team pass 8: a reading function replaced through the type's own __setattr__
    "type-setattr": "import pathlib\ntype.__setattr__(pathlib.Path, 'read_text', print)\n",
    "object-setattr": "import json\nobject.__setattr__(json, 'loads', print)\n",
    "bound-setattr": "import os\nos.path.__setattr__('exists', print)\n",
    "type-delattr": "from pathlib import Path\ntype.__delattr__(Path, 'read_text')\n",
}


@pytest.mark.parametrize("name", sorted(REBINDING_SOURCE))
def test_the_code_under_test_rebinding_another_modules_names_is_named(name: str) -> None:
    own = frozenset({"demo", "tests", "oracles"})
    found = scan_source("demo/codec.py", REBINDING_SOURCE[name].encode(), is_test=False, own=own)
    assert any(
        "rebinds a name of another module" in f.what or "imports the tests' oracles" in f.what
        for f in found
    ), (name, found)


def test_the_projects_own_modules_and_local_objects_may_be_set() -> None:
    source = (
        "import demo.settings\nfrom demo import registry\nfrom . import config\n\n"
        "demo.settings.DEBUG = True\nregistry.ITEMS = []\nconfig.LEVEL = 2\n\n"
        "class Box:\n    def __init__(self):\n        self.size = 1\n\n"
        "def tag(obj):\n    obj.label = 'x'\n    setattr(obj, 'kind', 1)\n"
        "\nclass Frozen:\n    def __post_init__(self):\n        object.__setattr__(self, 'n', 1)\n"
    )
    own = frozenset({"demo", "settings", "registry", "config"})
    assert scan_source("demo/codec.py", source.encode(), is_test=False, own=own) == []
    # a test may set what it likes on what it imports: it runs in the head's own process only
    test = "import json\n\ndef test_x():\n    json.FLAG = 1\n"
    assert scan_source("tests/test_x.py", test.encode(), is_test=True) == []


def test_own_packages_come_from_the_merge_base(make_repo: Callable[[str], Repo]) -> None:
    from lanegate.introspection import own_packages

    repo = make_repo("own")
    repo.write("src/demo/__init__.py", "")
    repo.write("src/demo/io/files.py", "")
    repo.write("tests/test_demo.py", "")
    repo.write("README.md", "")
    base = repo.commit("base")
    repo.branch("agent")
    repo.write("unittest/__init__.py", "")  # the head cannot make a module its own
    repo.commit("agent")
    names = own_packages(repo.path, base)
    assert {"src", "demo", "io", "files", "tests", "test_demo", "__init__"} <= names
    assert "unittest" not in names and "README" not in names
