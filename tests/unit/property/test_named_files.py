"""A lane test process asked for named files leaves their sibling test files uncollected.

pytest lists a named file's folder and makes a module node of every sibling matching
`python_files` before it keeps the one asked for; a run of one file beside a thousand paid for all
of them, and every mutant's child paid again. The plugin now tells pytest to ignore a sibling `.py`
file no argument names, and only when every argument names a file. The runs below are real pytest
in the real sandbox: a conftest hook that fails for any sibling file pytest offers it shows which
files reach collection, and plain pytest on the same tree shows that the hook does fail there.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from lanegate.lanes.property.baseline import pytest_flags, run_baseline
from lanegate.lanes.property.coverage_map import CoverageMap
from lanegate.lanes.property.mutate_run import MutantResult, run_mutants
from lanegate.lanes.property.named_files import named_files, unnamed_sibling
from lanegate.lanes.property.operators import Edit
from lanegate.lanes.property.plant import MutantSpec
from lanegate.lanes.property.runner import build_jobs
from lanegate.policy import load_policy
from lanegate.sandbox import open_sandbox

# offered to collection: a collection error naming the sibling
TRIPWIRE = """
def pytest_collect_file(file_path, parent):
    if file_path.name.startswith("test_sibling"):
        raise RuntimeError(f"{file_path.name} reached collection")
"""


def _tree(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    tests = repo / "tests"
    (tests / "pkg").mkdir(parents=True)
    (tests / "conftest.py").write_text(TRIPWIRE, encoding="utf-8")
    (tests / "test_named.py").write_text("def test_named():\n    pass\n", encoding="utf-8")
    (tests / "test_also.py").write_text("def test_also():\n    pass\n", encoding="utf-8")
    for i in range(5):
        (tests / f"test_sibling_{i}.py").write_text("def test_s():\n    pass\n", encoding="utf-8")
    (tests / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (tests / "pkg" / "test_sibling_deep.py").write_text("def test_d():\n    pass\n", "utf-8")
    return repo


CALC = b"def double(x):\n    return x * 2\n"


def _mutant_of_double(
    repo: Path, selection: list[str], extra_flags: tuple[str, ...] = (), baseline_exit: int = 0
) -> tuple[list[MutantResult], str | None]:
    """`x * 2` -> `x + 2` in calc.py, judged by the tests `selection` runs at baseline (which
    exits `baseline_exit`), in one sandboxed fork-server worker."""
    policy = load_policy(repo)
    sandbox = open_sandbox(repo)
    baseline = run_baseline(
        repo,
        policy,
        [repo / "calc.py"],
        selection=selection,
        sandbox=sandbox,
        extra_flags=extra_flags,
    )
    assert baseline.exit_code == baseline_exit, baseline.record
    column = CALC.decode().splitlines()[1].index("*")
    spec = MutantSpec(
        "m-double", "calc.py", Edit("hand", 2, column, 2, column + 1, "+"), "*", "double", 1
    )
    tests = frozenset(baseline.tests)
    jobs = build_jobs(
        repo,
        [spec],
        {"calc.py": CALC},
        CoverageMap.from_record(baseline.tests),
        baseline.tests,
        tests,
        baseline.overhead,
    )
    return run_mutants(repo, jobs, pytest_flags(policy), tests, workers=1, sandbox=sandbox)


def test_named_files_are_the_files_every_argument_names(tmp_path: Path) -> None:
    repo = _tree(tmp_path)
    tests = repo / "tests"
    named = named_files(
        ["tests/test_named.py::test_named", "./tests/test_also.py", "tests/../tests/test_named.py"],
        repo,
        pyargs=False,
    )
    assert named == frozenset({str(tests / "test_named.py"), str(tests / "test_also.py")})


def test_a_folder_a_module_a_missing_file_or_no_argument_names_nothing(tmp_path: Path) -> None:
    repo = _tree(tmp_path)
    assert named_files(["tests/test_named.py", "tests"], repo, pyargs=False) is None
    assert named_files(["tests/test_named.py"], repo, pyargs=True) is None
    assert named_files(["tests/test_gone.py::test_x"], repo, pyargs=False) is None
    assert named_files([], repo, pyargs=False) is None
    # names no file can have: nothing is left out, and nothing raises
    assert named_files(["tests/test_named.py", "tests/a\0b.py"], repo, pyargs=False) is None
    assert named_files(["tests/" + "x" * 5000 + ".py"], repo, pyargs=False) is None


def test_only_unnamed_python_files_are_siblings_to_leave_out(tmp_path: Path) -> None:
    repo = _tree(tmp_path)
    tests = repo / "tests"
    named = named_files(["tests/test_named.py"], repo, pyargs=False)
    (tests / "data.txt").write_text("x", encoding="utf-8")
    (tests / "folder.py").mkdir()
    assert unnamed_sibling(str(tests / "test_sibling_0.py"), named)
    assert not unnamed_sibling(str(tests / "test_named.py"), named)
    assert not unnamed_sibling(str(tests / "conftest.py"), named)
    assert not unnamed_sibling(str(tests / "pkg" / "__init__.py"), named)
    assert not unnamed_sibling(str(tests / "data.txt"), named)
    assert not unnamed_sibling(str(tests / "folder.py"), named)
    assert not unnamed_sibling(str(tests / "pkg"), named)
    assert not unnamed_sibling(str(tests / "test_sibling_0.py"), None)


@given(
    st.dictionaries(
        st.sampled_from(
            ["test_a.py", "b.py", "conftest.py", "__init__.py", "c.txt", "test_d.py", "dir.py"]
        ),
        st.booleans(),
        min_size=1,
    )
)
def test_a_file_is_left_out_exactly_when_it_is_an_unnamed_python_module(
    files: dict[str, bool],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        here = Path(folder)
        for name in files:
            if name == "dir.py":
                (here / name).mkdir()
            else:
                (here / name).write_text("", encoding="utf-8")
        named = frozenset(str(here / name) for name, asked in files.items() if asked)
        for name, asked in files.items():
            expected = (
                not asked
                and name.endswith(".py")
                and name not in ("conftest.py", "__init__.py", "dir.py")
            )
            assert unnamed_sibling(str(here / name), named) is expected


def test_a_run_of_named_files_never_offers_their_siblings_to_collection(tmp_path: Path) -> None:
    repo = _tree(tmp_path)
    baseline = run_baseline(
        repo,
        load_policy(repo),
        [],
        selection=["tests/test_named.py", "tests/test_also.py::test_also"],
        sandbox=open_sandbox(repo),
    )
    assert baseline.collection.errors == ()
    assert set(baseline.collection.node_ids) == {
        "tests/test_named.py::test_named",
        "tests/test_also.py::test_also",
    }
    assert baseline.exit_code == 0


def test_a_folder_argument_collects_every_file_as_pytest_does(tmp_path: Path) -> None:
    # the tripwire fires when a folder is named: nothing is left out then, so the run above
    # passing is the named-files rule's doing
    repo = _tree(tmp_path)
    baseline = run_baseline(
        repo, load_policy(repo), [], selection=["tests"], sandbox=open_sandbox(repo)
    )
    assert baseline.collection.errors


def test_plain_pytest_offers_the_siblings_of_a_named_file(tmp_path: Path) -> None:
    repo = _tree(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_named.py"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode != 0
    assert "reached collection" in done.stdout + done.stderr


def test_each_mutant_child_collects_only_the_files_its_worker_was_given(tmp_path: Path) -> None:
    # a fork-server child collects the files every job needs: with the tripwire beside them, any
    # sibling offered to collection fails the unmutated control, and no mutant could be judged
    repo = _tree(tmp_path)
    (repo / "calc.py").write_bytes(CALC)
    (repo / "tests" / "test_named.py").write_text(
        "from calc import double\n\ndef test_named():\n    assert double(3) == 6\n", "utf-8"
    )
    results, problem = _mutant_of_double(repo, ["tests/test_named.py"])
    assert problem is None
    assert [str(r.status) for r in results] == ["killed"]


def test_a_class_no_job_runs_is_not_collected_by_the_mutants_children(tmp_path: Path) -> None:
    # found by red-teaming a change that gave the workers whole files: a class of a selected file
    # that cannot be collected here (its parameters come from a data folder this machine lacks) is
    # tolerated by the baseline (`--continue-on-collection-errors`, as the base suite runs) and
    # must not stop the children, which are given the node ids of the tests their jobs run
    repo = _tree(tmp_path)
    (repo / "calc.py").write_bytes(CALC)
    with (repo / "tests" / "conftest.py").open("a", encoding="utf-8") as conftest:
        conftest.write(
            "\n\ndef pytest_generate_tests(metafunc):\n"
            "    if 'dataset' in metafunc.fixturenames:\n"
            "        import os\n"
            "        metafunc.parametrize('dataset', os.listdir(os.environ['DATASET_DIR']))\n"
        )
    (repo / "tests" / "test_named.py").write_text(
        "from calc import double\n\n"
        "class TestDouble:\n    def test_three(self):\n        assert double(3) == 6\n\n"
        "class TestDataset:\n    def test_case(self, dataset):\n        pass\n",
        "utf-8",
    )
    results, problem = _mutant_of_double(
        repo, ["tests/test_named.py"], ("--continue-on-collection-errors",), baseline_exit=1
    )
    assert problem is None
    assert [(str(r.status), r.killed_by) for r in results] == [
        ("killed", "tests/test_named.py::TestDouble::test_three")
    ]


def test_a_folder_a_conftest_adds_after_configure_is_collected_whole(tmp_path: Path) -> None:
    # found by red-teaming: the named files were read once at configure, so a folder a conftest
    # added to the arguments later had its files left out as siblings; they are read again now
    repo = tmp_path / "repo"
    (repo / "tests" / "more").mkdir(parents=True)
    (repo / "conftest.py").write_text(
        "def pytest_sessionstart(session):\n    session.config.args.append('tests/more')\n",
        encoding="utf-8",
    )
    (repo / "tests" / "test_a.py").write_text("def test_a():\n    pass\n", encoding="utf-8")
    (repo / "tests" / "more" / "test_m.py").write_text("def test_m():\n    pass\n", "utf-8")
    baseline = run_baseline(
        repo, load_policy(repo), [], selection=["tests/test_a.py"], sandbox=open_sandbox(repo)
    )
    assert set(baseline.collection.node_ids) == {
        "tests/test_a.py::test_a",
        "tests/more/test_m.py::test_m",
    }
