"""`lanegate coverage-map build|key` and `lanegate property --coverage-map` on a real repository:
the map is built, used, and refused (stale, corrupt, inside the head's tree) with the reason in the
ledger; changes the map cannot scope run the full baseline."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from lanegate.ledgers.load import load_file
from lanegate.ledgers.models import PropertyLedger
from tests.gitrepo import Repo

CALC = """\
def add(a, b):
    return a + b


def mul(a, b):
    return a * b


def dead(x):
    return x - 1


def load():
    return {"k": 1}


def make_store():
    return {"v": 10}


TABLE = load()
"""

CONFTEST = """\
import pytest

from pkg.calc import make_store


@pytest.fixture(scope="session")
def store():
    return make_store()
"""

TESTS = {
    "tests/test_add.py": (
        "from pkg.calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\n"
        "def test_store_first(store):\n    assert store['v'] == 10\n\n\n"
        "def test_store_second(store):\n    assert store['v'] > 0\n"
    ),
    "tests/test_mul.py": (
        "from pkg.calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n"
    ),
    "tests/test_spawn.py": (
        "import subprocess\nimport sys\n\n\ndef test_spawn():\n"
        "    subprocess.run([sys.executable, '-c', 'pass'], check=True)\n"
    ),
    "tests/test_table.py": (
        "from pkg.calc import TABLE\n\n\ndef test_table():\n    assert TABLE == {'k': 1}\n"
    ),
}
NEW_TEST = (
    "from pkg.calc import mul\n\n\ndef test_mul_more():\n"
    "    assert mul(3, 4) == 12 and mul(0, 5) == 0\n"
)


def _lanegate(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lanegate", *args, "--repo", str(repo)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Repo, Path]]:
    root = tmp_path_factory.mktemp("covmap")
    repo = Repo(root / "repo")
    repo.write("pyproject.toml", '[tool.pytest.ini_options]\npythonpath = ["src"]\n')
    repo.write(
        "lanegate.toml", "[properties]\nmax_examples = 10\nmax_mutants = 4\nmutant_draw = 1\n"
    )
    repo.write("src/pkg/__init__.py", "")
    repo.write("src/pkg/calc.py", CALC)
    repo.write("tests/conftest.py", CONFTEST)
    for path, text in TESTS.items():
        repo.write(path, text)
    repo.commit("base")
    maps = root / "maps"
    built = _lanegate(repo.path, "coverage-map", "build", "--out", str(maps))
    assert built.returncode == 0, built.stdout + built.stderr
    branches = {
        "feat-mul": {
            "src/pkg/calc.py": CALC.replace("a * b", "b * a"),
            "tests/test_more.py": NEW_TEST,
        },
        "feat-store": {"src/pkg/calc.py": CALC.replace('{"v": 10}', '{"v": 10, "w": 1}')},
        "feat-load": {"src/pkg/calc.py": CALC.replace('{"k": 1}', '{"k": 2}')},
        "feat-dead": {"src/pkg/calc.py": CALC.replace("x - 1", "x - 2")},
        "feat-module": {"src/pkg/calc.py": CALC.replace("TABLE = load()", "TABLE = load()\nN = 1")},
    }
    for name, files in branches.items():
        repo.branch(name, "main")
        for path, text in files.items():
            repo.write(path, text)
        repo.commit(name)
    repo.checkout("main")
    yield repo, maps


def _run(repo: Repo, branch: str, *extra: str) -> tuple[PropertyLedger, str]:
    repo.checkout(branch)
    out = repo.path.parent / f"out-{branch}-{len(extra)}"
    shutil.rmtree(out, ignore_errors=True)
    done = _lanegate(repo.path, "property", "--base", "main", "--out", str(out), "--quiet", *extra)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    ledger = load_file(PropertyLedger, "property", out / "property.json").value
    return ledger, done.stdout


def _base_ids(ledger: PropertyLedger) -> set[str]:
    return {run.node_id for run in ledger.base_tests}


def test_the_map_records_reach_fixtures_ambient_calls_and_process_starts(
    setup: tuple[Repo, Path],
) -> None:
    _, maps = setup
    (path,) = maps.iterdir()
    data = json.loads(path.read_text("utf-8"))
    functions = data["functions"]
    tests = data["tests"]

    def reached(node: str) -> set[str]:
        return {functions[i] for i in tests[node]["reached"]}

    assert reached("tests/test_mul.py::test_mul") == {"src/pkg/calc.py::mul"}
    # the session fixture ran during the first test; the second test uses its value too
    assert "src/pkg/calc.py::make_store" in reached("tests/test_add.py::test_store_second")
    assert "src/pkg/calc.py::load" in {functions[i] for i in data["ambient"]}
    assert tests["tests/test_spawn.py::test_spawn"]["opaque"] is True
    assert tests["tests/test_mul.py::test_mul"]["opaque"] is False


def test_the_key_command_names_the_built_map(setup: tuple[Repo, Path]) -> None:
    repo, maps = setup
    repo.checkout("feat-mul")
    done = _lanegate(repo.path, "coverage-map", "key", "--base", "main")
    assert done.returncode == 0, done.stderr
    digest, name = done.stdout.split()
    (path,) = maps.iterdir()
    assert path.name == name and json.loads(path.read_text("utf-8"))["key_digest"] == digest


def test_the_map_selects_the_tests_that_reach_the_change(setup: tuple[Repo, Path]) -> None:
    repo, maps = setup
    mapped, stdout = _run(repo, "feat-mul", "--coverage-map", str(maps))
    assert mapped.baseline.mode == "coverage-map"
    assert mapped.baseline.changed_functions == ("src/pkg/calc.py::mul",)
    assert mapped.baseline.map_tests == 6
    # the test reaching mul, and the one that starts a process (its child was not traced)
    assert _base_ids(mapped) == {"tests/test_mul.py::test_mul", "tests/test_spawn.py::test_spawn"}
    assert mapped.baseline.selected_tests == 3  # those two and the diff's new test
    assert "baseline coverage-map: 2 of 6 base tests" in stdout
    full, _ = _run(repo, "feat-mul")
    assert full.baseline.mode == "full" and full.baseline.reason == "no coverage map given"
    assert len(full.base_tests) == 6 and full.baseline.selected_tests == 7
    # same mutants, same verdicts, same killers: the selection lost no evidence
    assert [(m.id, m.status, m.killed_by) for m in mapped.mutants] == [
        (m.id, m.status, m.killed_by) for m in full.mutants
    ]
    assert mapped.mutants


def test_a_session_fixture_carries_its_reach_to_every_user(setup: tuple[Repo, Path]) -> None:
    repo, maps = setup
    ledger, _ = _run(repo, "feat-store", "--coverage-map", str(maps))
    assert ledger.baseline.mode == "coverage-map"
    assert _base_ids(ledger) == {
        "tests/test_add.py::test_store_first",
        "tests/test_add.py::test_store_second",
        "tests/test_spawn.py::test_spawn",
    }


def test_a_function_called_at_import_runs_the_full_baseline(setup: tuple[Repo, Path]) -> None:
    repo, maps = setup
    ledger, _ = _run(repo, "feat-load", "--coverage-map", str(maps))
    assert ledger.baseline.mode == "full"
    assert "src/pkg/calc.py::load runs outside any test" in ledger.baseline.reason
    assert len(ledger.base_tests) == 6
    failed = {r.node_id for r in ledger.base_tests if r.outcome == "failed"}
    assert failed == {"tests/test_table.py::test_table"}  # what the selection would have missed


def test_a_module_level_change_runs_the_full_baseline(setup: tuple[Repo, Path]) -> None:
    repo, maps = setup
    ledger, _ = _run(repo, "feat-module", "--coverage-map", str(maps))
    assert ledger.baseline.mode == "full"
    assert "src/pkg/calc.py:22 is outside every function body" in ledger.baseline.reason


def test_a_changed_function_no_test_reached_says_so(setup: tuple[Repo, Path]) -> None:
    repo, maps = setup
    ledger, _ = _run(repo, "feat-dead", "--coverage-map", str(maps))
    assert ledger.baseline.mode == "coverage-map"
    assert "no base test reached (src/pkg/calc.py::dead)" in ledger.baseline.reason
    assert _base_ids(ledger) == {"tests/test_spawn.py::test_spawn"}
    assert {m.status for m in ledger.mutants} == {"no_tests"}


def test_a_stale_map_runs_the_full_baseline(setup: tuple[Repo, Path]) -> None:
    repo, maps = setup
    (path,) = maps.iterdir()
    repo.checkout("main")
    repo.branch("advanced", "main")
    repo.write("tests/test_mul.py", TESTS["tests/test_mul.py"] + "\n\ndef test_one():\n    pass\n")
    repo.commit("main moved on")
    repo.branch("feat-late", "advanced")
    repo.write("src/pkg/calc.py", CALC.replace("a * b", "b * a"))
    repo.commit("late feature")
    try:
        repo.checkout("feat-late")
        done = _lanegate(
            repo.path,
            "property",
            "--base",
            "advanced",
            "--out",
            "late",
            "--quiet",
            "--coverage-map",
            str(path),
        )
        ledger = load_file(PropertyLedger, "property", repo.path / "late" / "property.json").value
        assert ledger.baseline.mode == "full", done.stdout
        assert ledger.baseline.reason == "coverage map is stale: base_commit differ"
        assert ledger.baseline.map_key and ledger.baseline.map_tests == 6
        done = _lanegate(
            repo.path,
            "property",
            "--base",
            "advanced",
            "--out",
            "late2",
            "--quiet",
            "--coverage-map",
            str(maps),
        )
        ledger = load_file(PropertyLedger, "property", repo.path / "late2" / "property.json").value
        assert ledger.baseline.mode == "full"
        assert ledger.baseline.reason.startswith("no coverage map for this base and environment")
    finally:
        shutil.rmtree(repo.path / "late", ignore_errors=True)
        shutil.rmtree(repo.path / "late2", ignore_errors=True)
        repo.checkout("main")


def test_a_corrupt_map_runs_the_full_baseline_with_a_one_line_note(
    setup: tuple[Repo, Path],
) -> None:
    repo, maps = setup
    (path,) = maps.iterdir()
    broken = repo.path.parent / "broken"
    broken.mkdir(exist_ok=True)
    (broken / path.name).write_bytes(path.read_bytes()[:-40])
    ledger, stdout = _run(repo, "feat-mul", "--coverage-map", str(broken))
    assert ledger.baseline.mode == "full"
    assert (
        ledger.baseline.reason
        == f"coverage map unusable: {path.name}: file: not JSON (JSONDecodeError)"
    )
    assert len(ledger.base_tests) == 6
    line = next(ln for ln in stdout.splitlines() if ln.startswith("baseline full"))
    assert "coverage map unusable" in line


def test_a_map_inside_the_head_tree_is_ignored(setup: tuple[Repo, Path]) -> None:
    repo, maps = setup
    (path,) = maps.iterdir()
    repo.branch("feat-cache", "feat-mul")  # feat-mul itself stays as it is for the other tests
    repo.write(".lanegate-cache/" + path.name, path.read_bytes())
    repo.commit("a map in the head")
    try:
        ledger, _ = _run(repo, "feat-cache", "--coverage-map", str(repo.path / ".lanegate-cache"))
        assert ledger.baseline.mode == "full"
        assert "inside the head's tree: ignored" in ledger.baseline.reason
        # a link from outside into the tree is the same file
        link = repo.path.parent / "link"
        link.mkdir(exist_ok=True)
        (link / path.name).unlink(missing_ok=True)
        (link / path.name).symlink_to(repo.path / ".lanegate-cache" / path.name)
        ledger, _ = _run(repo, "feat-cache", "--coverage-map", str(link))
        assert ledger.baseline.mode == "full"
        assert "resolves inside the head's tree: ignored" in ledger.baseline.reason
    finally:
        repo.checkout("main")


def test_build_refuses_a_dirty_tree(setup: tuple[Repo, Path], tmp_path: Path) -> None:
    repo, _ = setup
    repo.checkout("main")
    repo.write("src/pkg/calc.py", CALC + "\n# edited\n")
    try:
        done = _lanegate(repo.path, "coverage-map", "build", "--out", str(tmp_path))
        assert done.returncode == 2
        assert "uncommitted changes" in done.stderr and "Traceback" not in done.stderr
        assert not list(tmp_path.iterdir())
    finally:
        repo.write("src/pkg/calc.py", CALC)


def test_hostile_node_ids_in_a_map_never_reach_pytests_command_line(
    setup: tuple[Repo, Path],
) -> None:
    repo, maps = setup
    (path,) = maps.iterdir()
    data = json.loads(path.read_text("utf-8"))
    mul = data["functions"].index("src/pkg/calc.py::mul")
    for node in ("/etc/passwd::t", "../outside.py::t", "--collect-only::t", "tests/none.py::t"):
        data["tests"][node] = {"outcome": "passed", "opaque": False, "reached": [mul]}
    hostile = repo.path.parent / "hostile"
    hostile.mkdir(exist_ok=True)
    (hostile / path.name).write_text(json.dumps(data), encoding="utf-8")
    ledger, _ = _run(repo, "feat-mul", "--coverage-map", str(hostile))
    assert ledger.baseline.mode == "coverage-map"
    assert _base_ids(ledger) == {"tests/test_mul.py::test_mul", "tests/test_spawn.py::test_spawn"}
    assert ledger.baseline.selected_tests == 3


def test_lanegate_run_takes_the_map_to_its_property_lane(
    setup: tuple[Repo, Path], tmp_path: Path
) -> None:
    """`lanegate run --coverage-map` selects as `lanegate property --coverage-map` does; a map
    directory without this key's file runs the full baseline and says so."""
    repo, maps = setup
    repo.checkout("feat-mul")
    try:
        ledgers = {}
        for label, given in (("map", maps), ("missing", tmp_path / "no-maps")):
            out = tmp_path / label
            done = _lanegate(
                repo.path, "run", "--base", "main", "--out", str(out), "--quiet",
                "--coverage-map", str(given),
            )  # fmt: skip
            assert done.returncode in (0, 1), done.stdout + done.stderr
            assert "Traceback" not in done.stderr
            assert (out / "score-report.json").is_file()
            ledgers[label] = load_file(PropertyLedger, "property", out / "property.json").value
    finally:
        repo.checkout("main")
    mapped, missing = ledgers["map"], ledgers["missing"]
    assert mapped.baseline.mode == "coverage-map"
    assert _base_ids(mapped) == {"tests/test_mul.py::test_mul", "tests/test_spawn.py::test_spawn"}
    assert mapped.baseline.selected_tests == 3
    assert missing.baseline.mode == "full"
    assert missing.baseline.reason.startswith("no coverage map for this base and environment")
    assert len(missing.base_tests) == 6
    assert [(m.id, m.status, m.killed_by) for m in mapped.mutants] == [
        (m.id, m.status, m.killed_by) for m in missing.mutants
    ]
