from __future__ import annotations

from pathlib import Path

from lanegate.diff import classify_diff
from lanegate.lanes.collection import Collection, changed_test_files
from lanegate.lanes.flake.collect import collect
from lanegate.lanes.flake.select import discover_tests, select_module, select_tests
from lanegate.policy import Policy
from lanegate.sandbox import open_sandbox
from tests.unit.flake.repos import PYTEST_INI

MODULE = """\
import random
import threading
import time

STATE = []
NAMES = {"alpha": 1, "beta": 2}


def helper():
    return random.random()


def test_first():
    STATE.append(1)


@decorated
def test_second():
    assert helper() < 2


class TestGroup:
    def test_method(self):
        assert time.time() > 0

    def not_a_test(self):
        pass


def test_third():
    t = threading.Thread(target=print)
    assert id(t) != id(STATE)


def test_last():
    assert {"a": 1} == {"a": 1}
    assert "".join({"x", "y"}) and set(NAMES) and frozenset(["p", "q", "p"])
"""


IDS = (
    "t.py::test_first",
    "t.py::test_second",
    "t.py::TestGroup::test_method",
    "t.py::test_third",
    "t.py::test_last",
)


def test_discover_in_collection_order_with_spans_and_risks() -> None:
    tests = discover_tests(MODULE, "t.py", IDS)
    assert [t.node_id for t in tests] == list(IDS)
    second = tests[1]
    assert MODULE.splitlines()[second.spans[0][0] - 1] == "@decorated"
    assert second.risks == frozenset({"random"})  # through the helper it calls
    assert tests[2].risks == frozenset({"clock"})
    assert tests[3].risks == frozenset({"threads", "identity"})
    assert tests[0].risks == frozenset()
    assert tests[4].risks == frozenset({"hashing"})  # it builds sets
    assert set(tests[4].str_sets) == {("x", "y"), ("alpha", "beta"), ("p", "q")}
    assert tests[0].str_sets == ()


CLASSES = """\
import threading
import time


class Cache:
    def __init__(self, ttl, clock=time.monotonic):
        self.ttl, self.clock = ttl, clock


class Worker(threading.Thread):
    pass


def make_worker():
    return Worker()


def build():
    return make_worker()


class TestGroup:
    def test_in_a_class(self):
        assert True


def test_cache():
    assert Cache(0.1).ttl == 0.1


def test_worker_two_helpers_down():
    assert build() is not None


def test_plain():
    assert TestGroup is not None
"""


def test_a_test_inherits_the_risks_of_the_classes_and_helpers_of_helpers_it_reaches() -> None:
    ids = ("t.py::test_cache", "t.py::test_worker_two_helpers_down", "t.py::test_plain")
    cache, worker, plain = discover_tests(CLASSES, "t.py", ids)
    assert cache.risks == frozenset({"clock"})  # the class reads the clock, the test never does
    assert worker.risks == frozenset({"threads"})  # build -> make_worker -> Worker(Thread)
    assert plain.risks == frozenset()  # a test class is no helper


def test_hashing_follows_names_imported_from_repository_modules_that_build_sets() -> None:
    sources = {
        "tests/shop.py": "def dedupe(xs):\n    return list(set(xs))\n",
        "pkg/__init__.py": "",
        "pkg/plain.py": "def add(a, b):\n    return a + b\n",
        "src/tags/__init__.py": "class Tag:\n    __hash__ = None\n",
    }
    module = (
        "from shop import dedupe\nfrom pkg.plain import add\nimport tags\nimport os\n\n"
        "def test_dedupe():\n    assert dedupe([1])\n\n"
        "def test_add():\n    assert add(1, 2) == 3\n\n"
        "def test_tags():\n    assert tags.Tag\n\n"
        "def test_os():\n    assert os.sep\n"
    )
    ids = [f"tests/test_m.py::test_{n}" for n in ("dedupe", "add", "tags", "os")]
    tests = discover_tests(module, "tests/test_m.py", ids, sources.get)
    assert ["hashing" in t.risks for t in tests] == [True, False, True, False]
    # without a reader only the module's own code counts
    assert all("hashing" not in t.risks for t in discover_tests(module, "tests/test_m.py", ids))


FIXTURES = """\
import http.server
import subprocess

import pytest

REPORT = "/tmp/report.csv"


@pytest.fixture(name="server")
def _server():
    return http.server.HTTPServer(("127.0.0.1", 8765), http.server.BaseHTTPRequestHandler)


@pytest.fixture
def client(server):
    return server.server_address


@pytest.fixture
def report():
    return REPORT


def test_through_a_fixture_of_a_fixture(client):
    assert client


@pytest.mark.usefixtures("report")
def test_through_usefixtures():
    pass


def test_from_the_conftest(shared_socket):
    pass


def test_sets_a_deadline():
    subprocess.run(["true"], timeout=0.5)


def test_port_zero():
    assert ("127.0.0.1", 0)
"""


def test_a_test_inherits_what_its_fixtures_touch_and_a_deadline_it_sets() -> None:
    sources = {
        "tests/conftest.py": (
            "import socket\nimport pytest\n\n@pytest.fixture\n"
            "def shared_socket():\n    return socket.socket()\n"
        )
    }
    names = ("fixture_of_a_fixture", "usefixtures", "the_conftest", "deadline", "zero")
    ids = [
        f"tests/test_f.py::test_{n}"
        for n in ("through_a_fixture_of_a_fixture", "through_usefixtures", "from_the_conftest")
    ] + ["tests/test_f.py::test_sets_a_deadline", "tests/test_f.py::test_port_zero"]
    found = dict(
        zip(names, discover_tests(FIXTURES, "tests/test_f.py", ids, sources.get), strict=True)
    )
    assert "resource" in found["fixture_of_a_fixture"].risks  # a fixed port, two fixtures down
    assert "resource" in found["usefixtures"].risks  # a path under /tmp
    assert "resource" in found["the_conftest"].risks  # a conftest's fixture opens a socket
    assert found["deadline"].risks == frozenset({"deadline"})
    assert found["zero"].risks == frozenset()  # port 0: the kernel picks a free one


def test_changed_test_selects_every_test_before_it() -> None:
    line = MODULE.splitlines().index("    def test_method(self):") + 2
    selected = select_module("t.py", MODULE, frozenset({line}), IDS)
    assert [(s.node_id, s.touched) for s in selected] == [
        ("t.py::test_first", False),
        ("t.py::test_second", False),
        ("t.py::TestGroup::test_method", True),
    ]
    assert not any(s.whole_module for s in selected)


def _touched(source: str, lines: set[int]) -> list[str]:
    return [s.node_id for s in select_module("t.py", source, frozenset(lines), IDS) if s.touched]


def test_a_change_outside_the_tests_touches_the_tests_that_reach_it() -> None:
    lines = MODULE.splitlines()
    # a constant: the tests that name it; a helper: the tests that call it
    assert _touched(MODULE, {lines.index("STATE = []") + 1}) == [
        "t.py::test_first",
        "t.py::test_third",
    ]
    assert _touched(MODULE, {lines.index("    return random.random()") + 1}) == [
        "t.py::test_second"
    ]
    # an import: the tests (and the helpers they call) that use it
    assert _touched(MODULE, {lines.index("import random") + 1}) == ["t.py::test_second"]
    # a test class's own helper method: the class's tests
    assert _touched(MODULE, {lines.index("    def not_a_test(self):") + 2}) == [
        "t.py::TestGroup::test_method"
    ]
    # blank lines and comments between statements: nothing
    assert _touched(MODULE, {lines.index('NAMES = {"alpha": 1, "beta": 2}') + 2}) == []
    # a statement run at import binds no name: any test may see what it did
    seeded = MODULE.replace("STATE = []\n", "STATE = []\nrandom.seed(0)\n")
    line = seeded.splitlines().index("random.seed(0)") + 1
    assert len(_touched(seeded, {line})) == 5


def test_a_fixture_touches_the_tests_that_request_it_and_an_autouse_one_every_test() -> None:
    module = (
        "import pytest\n\n\n@pytest.fixture\ndef db():\n    return {}\n\n\n"
        "def test_db(db):\n    assert db == {}\n\n\n"
        "@pytest.mark.usefixtures('db')\ndef test_uses():\n    pass\n\n\n"
        "def test_other():\n    pass\n"
    )
    ids = ("t.py::test_db", "t.py::test_uses", "t.py::test_other")
    touched = select_module("t.py", module, frozenset({6}), ids)
    assert [s.node_id for s in touched if s.touched] == ["t.py::test_db", "t.py::test_uses"]
    auto = module.replace("@pytest.fixture\n", "@pytest.fixture(autouse=True)\n")
    assert all(s.touched for s in select_module("t.py", auto, frozenset({6}), ids))


def test_a_new_file_selects_every_test() -> None:
    everything = select_module("t.py", MODULE, None, IDS)
    assert len(everything) == 5 and all(s.touched and s.whole_module for s in everything)


def test_unparsable_or_uncollectable_module_is_run_whole() -> None:
    (only,) = select_module("t.py", "def test_x(:\n", None, ())
    assert only.node_id == "t.py" and only.touched
    (failed,) = select_module("t.py", MODULE, frozenset({5}), (), collect_failed=True)
    assert failed.node_id == "t.py" and failed.whole_module


def test_a_name_pytest_did_not_collect_is_no_test() -> None:
    # `test_third` is not in the collection (say python_functions excludes it): never selected
    line = MODULE.splitlines().index("def test_third():") + 2
    ids = tuple(i for i in IDS if not i.endswith("test_third"))
    assert select_module("t.py", MODULE, frozenset({line}), ids) == []


def test_select_from_a_real_diff(make_repo) -> None:  # type: ignore[no-untyped-def]
    repo = make_repo("r")
    repo.write("pytest.ini", PYTEST_INI)
    repo.write("tests/test_mod.py", MODULE.replace("@decorated\n", ""))
    repo.write("tests/test_gone.py", "def test_gone():\n    pass\n")
    repo.write("src/lib.py", "X = 1\n")
    repo.commit("base")
    repo.branch("feature")
    repo.write(
        "tests/test_mod.py",
        MODULE.replace("@decorated\n", "").replace("assert helper() < 2", "assert helper() < 3"),
    )
    repo.write("tests/test_new.py", "def test_new():\n    pass\n")
    repo.write("tests/conftest.py", "X = 1\n")
    repo.remove("tests/test_gone.py")
    repo.write("src/lib.py", "X = 2\n")
    repo.commit("feature")
    diff = classify_diff(repo.path, "main", Policy())
    selection = select_tests(repo.path, diff, _collect(repo.path, diff))
    assert selection.node_ids == (
        "tests/test_mod.py::test_first",
        "tests/test_mod.py::test_second",
        "tests/test_new.py::test_new",
    )
    assert selection.touched_ids == {
        "tests/test_mod.py::test_second",
        "tests/test_new.py::test_new",
    }
    assert selection.pytest_args == (
        "tests/test_mod.py::test_first",
        "tests/test_mod.py::test_second",
        "tests/test_new.py",
    )


def _collect(repo: Path, diff) -> Collection:  # type: ignore[no-untyped-def]
    work = repo.parent / "work"
    work.mkdir(exist_ok=True)
    with open_sandbox(repo) as sandbox:
        return collect(
            repo, [f.path for f in changed_test_files(repo, diff)], (), 60, work, sandbox=sandbox
        )


UNITTEST_MODULE = """\
import unittest

import pytest


class ChunkedTests(unittest.TestCase):
    def test_basic(self):
        self.assertEqual(1, 1)

    def test_changed(self):
        self.assertEqual(2, 2)

    def helper(self):
        pass


class TestOuter:
    class TestInner:
        @pytest.mark.parametrize("n", [1, 2])
        def check_nested(self, n):
            assert n


class BaseChecks:
    def check_inherited(self):
        assert True


class CheckDerived(BaseChecks):
    pass


def check_custom():
    assert True


def test_not_by_custom_names():
    assert True
"""

SETUP_CFG = """\
[tool:pytest]
addopts = -p no:hypothesispytest
testpaths = tests
python_files = *_spec.py
python_classes = Check* Test*
python_functions = check_*
"""


def test_unittest_nested_parametrized_and_configured_names(make_repo) -> None:  # type: ignore[no-untyped-def]
    repo = make_repo("r")
    repo.write("setup.cfg", SETUP_CFG)
    repo.write("tests/chunk_spec.py", UNITTEST_MODULE)
    repo.commit("base")
    repo.branch("feature")
    changed = UNITTEST_MODULE.replace("self.assertEqual(2, 2)", "self.assertEqual(3, 3)")
    changed = changed.replace("assert n\n", "assert n > 0\n")
    repo.write("tests/chunk_spec.py", changed)
    repo.commit("feature")
    diff = classify_diff(repo.path, "main", Policy())
    collection = _collect(repo.path, diff)
    assert collection.node_ids == (
        "tests/chunk_spec.py::ChunkedTests::test_basic",
        "tests/chunk_spec.py::ChunkedTests::test_changed",
        "tests/chunk_spec.py::TestOuter::TestInner::check_nested[1]",
        "tests/chunk_spec.py::TestOuter::TestInner::check_nested[2]",
        "tests/chunk_spec.py::CheckDerived::check_inherited",
        "tests/chunk_spec.py::check_custom",
    )
    selection = select_tests(repo.path, diff, collection)
    assert selection.node_ids == collection.node_ids[:4]
    assert selection.touched_ids == {
        "tests/chunk_spec.py::ChunkedTests::test_changed",
        "tests/chunk_spec.py::TestOuter::TestInner::check_nested[1]",
        "tests/chunk_spec.py::TestOuter::TestInner::check_nested[2]",
    }


def test_inherited_test_is_touched_through_its_base(make_repo) -> None:  # type: ignore[no-untyped-def]
    repo = make_repo("r")
    repo.write("setup.cfg", SETUP_CFG)
    repo.write("tests/chunk_spec.py", UNITTEST_MODULE)
    repo.commit("base")
    repo.branch("feature")
    repo.write("tests/chunk_spec.py", UNITTEST_MODULE.replace("assert True\n", "assert 1\n", 1))
    repo.commit("feature")
    diff = classify_diff(repo.path, "main", Policy())
    selection = select_tests(repo.path, diff, _collect(repo.path, diff))
    assert selection.touched_ids == {"tests/chunk_spec.py::CheckDerived::check_inherited"}


def test_a_file_pytest_cannot_import_is_replayed_whole(make_repo) -> None:  # type: ignore[no-untyped-def]
    repo = make_repo("r")
    repo.write("pytest.ini", PYTEST_INI)
    repo.commit("base")
    repo.branch("feature")
    repo.write("tests/test_broken.py", "import no_such_module\n\n\ndef test_x():\n    pass\n")
    repo.write("tests/test_fine.py", "def test_y():\n    pass\n")
    repo.commit("feature")
    diff = classify_diff(repo.path, "main", Policy())
    collection = _collect(repo.path, diff)
    assert collection.failed("tests/test_broken.py")
    assert collection.node_ids == ("tests/test_fine.py::test_y",)
    selection = select_tests(repo.path, diff, collection)
    assert selection.node_ids == ("tests/test_broken.py", "tests/test_fine.py::test_y")


HOST_MODULE = """
import os
import shutil
from pathlib import Path


def _load(name):
    return Path("tests/data", name).read_text()


def test_cwd():
    assert _load("rates.json")


def test_terminal():
    assert shutil.get_terminal_size().columns


def test_columns_env():
    assert os.environ.get("COLUMNS") is None


def test_cpus():
    assert os.cpu_count() >= 1


def test_arithmetic():
    assert 1 + 1 == 2


def _drain(spool):
    return [(spool / name).read_text() for name in os.listdir(spool)]


def test_listing(tmp_path):
    assert _drain(tmp_path) == []


def test_iterdir(tmp_path):
    assert not list(tmp_path.iterdir())
"""


def test_host_risks_follow_files_terminal_and_cpu_names_and_helpers() -> None:
    names = ("cwd", "terminal", "columns_env", "cpus", "arithmetic", "listing", "iterdir")
    ids = [f"t.py::test_{n}" for n in names]
    risks = {t.node_id.split("_", 1)[1]: t.risks for t in discover_tests(HOST_MODULE, "t.py", ids)}
    assert "cwd" in risks["cwd"]  # through its helper
    assert "terminal" in risks["terminal"] and "terminal" in risks["columns_env"]
    assert "cpus" in risks["cpus"]
    assert not risks["arithmetic"] & {"cwd", "terminal", "cpus", "listing"}
    assert not risks["cpus"] & {"cwd", "terminal", "listing"}
    assert "listing" in risks["listing"] and "listing" in risks["iterdir"]  # the first by helper
    assert "listing" not in risks["cwd"]  # reading one file lists no directory


def test_host_risks_follow_names_imported_from_repository_modules_that_read_the_host() -> None:
    sources = {
        "tests/render.py": "import shutil\n\ndef width():\n    return shutil.get_terminal_size()[0]\n",
        "src/loader/__init__.py": "def load(name):\n    return open(name).read()\n",
        "pkg/__init__.py": "",
        "pkg/pool.py": "import os\n\ndef workers():\n    return os.cpu_count() - 1\n",
        "pkg/plain.py": "def add(a, b):\n    return a + b\n",
    }
    module = (
        "from render import width\nfrom loader import load\nfrom pkg.pool import workers\n"
        "from pkg.plain import add\n\n"
        "def test_width():\n    assert width()\n\n"
        "def test_load():\n    assert load('x')\n\n"
        "def test_workers():\n    assert workers()\n\n"
        "def test_add():\n    assert add(1, 2) == 3\n"
    )
    ids = [f"tests/test_m.py::test_{n}" for n in ("width", "load", "workers", "add")]
    tests = discover_tests(module, "tests/test_m.py", ids, sources.get)
    host = [t.risks & {"cwd", "terminal", "cpus"} for t in tests]
    assert host == [{"terminal"}, {"cwd"}, {"cpus"}, set()]
    # the test that calls none of them inherits nothing, and without a reader nothing counts
    assert not any(
        t.risks & {"cwd", "terminal", "cpus"}
        for t in discover_tests(module, "tests/test_m.py", ids)
    )


def test_every_host_dimension_has_its_risk_names() -> None:
    from lanegate.lanes.flake.dimensions import HOST_RISKS
    from lanegate.lanes.flake.select import HOST_RISK_NAMES

    assert frozenset(HOST_RISK_NAMES) == HOST_RISKS
    assert all(HOST_RISK_NAMES.values())


def test_a_deletion_changes_the_test_it_was_in_and_a_test_deleted_whole_is_gone(make_repo) -> None:  # type: ignore[no-untyped-def]
    # a change that only deletes lines has no line at head: it is mapped onto the base's tests
    repo = make_repo("r")
    repo.write("pytest.ini", PYTEST_INI)
    module = MODULE.replace("@decorated\n", "")
    repo.write("tests/test_mod.py", module)
    repo.commit("base")
    repo.branch("feature")
    cut = module.replace("    assert id(t) != id(STATE)\n", "").replace(
        "\n\nclass TestGroup:\n    def test_method(self):\n        assert time.time() > 0\n"
        "\n    def not_a_test(self):\n        pass\n",
        "",
    )
    repo.write("tests/test_mod.py", cut)
    repo.commit("feature")
    diff = classify_diff(repo.path, "main", Policy())
    assert [f.deletes_only for f in diff.files] == [True]
    selection = select_tests(repo.path, diff, _collect(repo.path, diff))
    # test_third lost a line: replayed (with the tests before it); TestGroup is gone: nothing of it
    assert selection.touched_ids == {"tests/test_mod.py::test_third"}
    assert "tests/test_mod.py::TestGroup::test_method" not in selection.node_ids


ALIASED = """\
import datetime as dt
import time as t
from functools import partial
from time import time as now

clock = t.monotonic
stamp = partial(dt.datetime.now, tz=dt.timezone.utc)


def test_module_alias():
    assert dt.date.today()


def test_function_alias():
    assert now() > 0


def test_attribute_of_an_alias():
    t.sleep(0)


def test_module_level_name_for_a_clock():
    assert clock() > 0


def test_partial_of_a_clock():
    assert stamp()


def test_aliased_inside():
    from os import getpid as pid

    assert pid()


def test_plain():
    assert partial(int, 3)() == 3
"""


def test_a_clock_is_seen_whatever_name_it_is_imported_or_bound_as() -> None:
    names = (
        "test_module_alias",
        "test_function_alias",
        "test_attribute_of_an_alias",
        "test_module_level_name_for_a_clock",
        "test_partial_of_a_clock",
        "test_aliased_inside",
        "test_plain",
    )
    tests = discover_tests(ALIASED, "t.py", [f"t.py::{n}" for n in names])
    risks = {t.node_id.split("::")[1]: t.risks for t in tests}
    for name in names[:5]:
        assert "clock" in risks[name], (name, risks[name])
    assert "clock" not in risks["test_aliased_inside"] and "clock" not in risks["test_plain"]
