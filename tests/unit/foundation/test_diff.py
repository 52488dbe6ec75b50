"""Diff classification on real temporary git repositories."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from lanegate.cli.main import main
from lanegate.diff import Change, Role, changed_lines, classify_diff, classify_path, is_test_file
from lanegate.errors import GitError
from lanegate.policy import Policy
from tests.gitrepo import Repo, git

POLICY = Policy()
MakeRepo = Callable[[str], Repo]


def _base(repo: Repo) -> str:
    repo.write("src/calc.py", "def add(a, b):\n    return a + b\n")
    repo.write("tests/test_calc.py", "def test_add():\n    assert True\n")
    repo.write("tests/fixtures/in.json", "{}\n")
    repo.write("docs/old name.md", "hello\n" * 20)
    sha = repo.commit("base")
    repo.branch("agent")
    return sha


def _by_path(summary: object) -> dict[str, object]:
    return {f.path: f for f in summary.files}  # type: ignore[attr-defined]


def test_added_modified_renamed_deleted_binary_and_odd_names(make_repo: MakeRepo) -> None:
    repo = make_repo("r")
    _base(repo)
    repo.write("src/calc.py", "def add(a, b):\n    return b + a\n")
    repo.write("tests/test_new.py", "def test_x():\n    pass\n")
    git(repo.path, "mv", "docs/old name.md", "docs/new näme.md")
    repo.remove("tests/fixtures/in.json")
    repo.write("tests/fixtures/blob.bin", bytes(range(256)))
    repo.write("tests/ünïcode test_x.py", "x = 1\n")
    head = repo.commit("agent change")
    summary = classify_diff(repo.path, "main", POLICY)
    files = _by_path(summary)
    assert summary.head_commit == head
    assert summary.merge_base == summary.base_commit == repo.rev("main")
    assert files["src/calc.py"].change is Change.MODIFIED  # type: ignore[attr-defined]
    assert files["src/calc.py"].roles == {Role.SOURCE}  # type: ignore[attr-defined]
    new_test = files["tests/test_new.py"]
    assert new_test.change is Change.ADDED and Role.TEST in new_test.roles  # type: ignore[attr-defined]
    renamed = files["docs/new näme.md"]
    assert renamed.change is Change.RENAMED  # type: ignore[attr-defined]
    assert renamed.old_path == "docs/old name.md"  # type: ignore[attr-defined]
    deleted = files["tests/fixtures/in.json"]
    assert deleted.change is Change.DELETED and Role.FIXTURE in deleted.roles  # type: ignore[attr-defined]
    binary = files["tests/fixtures/blob.bin"]
    assert binary.binary and Role.FIXTURE in binary.roles  # type: ignore[attr-defined]
    assert not files["src/calc.py"].binary  # type: ignore[attr-defined]
    assert "tests/ünïcode test_x.py" in files
    assert summary.with_role(Role.FIXTURE) == (binary,)
    assert set(summary.with_role(Role.FIXTURE, include_deleted=True)) == {binary, deleted}
    assert changed_lines(repo.path, summary.merge_base, head, "src/calc.py") == frozenset({2})


def test_a_test_module_that_chooses_plugins_is_a_gate_input(make_repo: MakeRepo) -> None:
    repo = make_repo("r")
    _base(repo)
    repo.write("tests/test_plain.py", "def test_a():\n    pass\n")
    repo.write("tests/test_plugins.py", "pytest_plugins = ['evil']\n\ndef test_b():\n    pass\n")
    repo.write("tests/test_typed.py", "pytest_plugins: list[str] = ['evil']\n")
    repo.commit("agent")
    files = _by_path(classify_diff(repo.path, "main", POLICY))
    assert not files["tests/test_plain.py"].is_gate_input  # type: ignore[attr-defined]
    assert files["tests/test_plugins.py"].is_gate_input  # type: ignore[attr-defined]
    assert files["tests/test_typed.py"].is_gate_input  # type: ignore[attr-defined]


def test_diff_is_from_the_merge_base_not_the_base_tip(make_repo: MakeRepo) -> None:
    repo = make_repo("r")
    _base(repo)
    repo.write("tests/test_agent.py", "def test_a():\n    pass\n")
    repo.commit("agent")
    repo.checkout("main")
    repo.write("src/other.py", "y = 2\n")  # lands on main after the branch point
    main_tip = repo.commit("main moves on")
    repo.checkout("agent")
    summary = classify_diff(repo.path, "main", POLICY)
    assert summary.base_commit == main_tip
    assert summary.merge_base != main_tip
    assert [f.path for f in summary.files] == ["tests/test_agent.py"]


def test_a_merge_commit_in_the_branch(make_repo: MakeRepo) -> None:
    repo = make_repo("r")
    _base(repo)
    repo.write("tests/test_agent.py", "def test_a():\n    pass\n")
    repo.commit("agent")
    repo.checkout("main")
    repo.write("src/other.py", "y = 2\n")
    repo.commit("main moves on")
    repo.checkout("agent")
    git(repo.path, "merge", "-q", "--no-edit", "main")
    repo.write(".github/workflows/ci.yml", "on: push\n")
    repo.commit("agent edits a workflow after merging main")
    summary = classify_diff(repo.path, "main", POLICY)
    files = _by_path(summary)
    # merged-in main changes are not the agent's
    assert set(files) == {"tests/test_agent.py", ".github/workflows/ci.yml"}
    assert files[".github/workflows/ci.yml"].is_gate_input  # type: ignore[attr-defined]


def test_missing_base_is_a_clear_error(make_repo: MakeRepo) -> None:
    repo = make_repo("r")
    _base(repo)
    with pytest.raises(GitError) as info:
        classify_diff(repo.path, "origin/nope", POLICY)
    text = info.value.diagnostic()
    assert "'origin/nope' is not a commit" in text and "fetch the base" in text


def test_shallow_clone_missing_the_base_says_so(make_repo: MakeRepo, tmp_path: Path) -> None:
    origin = make_repo("origin")
    first = _base(origin)
    for i in range(3):
        origin.write("src/calc.py", f"x = {i}\n")
        origin.commit(f"c{i}")
    clone = tmp_path / "clone"
    git(
        tmp_path,
        "clone",
        "-q",
        "--depth",
        "1",
        "--branch",
        "agent",
        f"file://{origin.path}",
        str(clone),
    )
    with pytest.raises(GitError) as info:
        classify_diff(clone, first, POLICY)
    assert "shallow clone" in info.value.diagnostic()
    assert "fetch-depth: 0" in info.value.diagnostic()


def test_option_like_refs_are_refused(make_repo: MakeRepo) -> None:
    repo = make_repo("r")
    _base(repo)
    with pytest.raises(GitError, match="invalid git ref"):
        classify_diff(repo.path, "--output=/tmp/x", POLICY)


@pytest.mark.parametrize(
    ("path", "roles"),
    [
        ("tests/test_a.py", {Role.TEST}),
        ("pkg/a_test.py", {Role.TEST}),
        ("tests/conftest.py", {Role.TEST, Role.TEST_CONFIG}),
        ("pytest.ini", {Role.TEST_CONFIG}),
        ("tox.ini", {Role.TEST_CONFIG}),
        ("setup.cfg", {Role.TEST_CONFIG}),
        ("pyproject.toml", {Role.TEST_CONFIG, Role.POLICY}),
        ("sub/pyproject.toml", {Role.TEST_CONFIG}),
        ("lanegate.toml", {Role.POLICY}),
        ("tests/oracles.py", {Role.POLICY}),
        ("tests/fixtures.lock.json", {Role.LOCKFILE}),
        ("tests/fixtures/a/b.json", {Role.FIXTURE}),
        ("flake_leases.json", {Role.LEASES}),
        (".github/workflows/ci.yml", {Role.WORKFLOW}),
        (".github/workflows/ci.yaml", {Role.WORKFLOW}),
        ("actions/setup/action.yml", {Role.WORKFLOW}),
        ("src/calc.py", {Role.SOURCE}),
        ("README.md", {Role.OTHER}),
        ("testing.py", {Role.SOURCE}),
        ("requirements.txt", {Role.DEPENDENCIES}),
        ("requirements-dev.txt", {Role.DEPENDENCIES}),
        ("ci/test-requirements.in", {Role.DEPENDENCIES}),
        ("constraints.txt", {Role.DEPENDENCIES}),
        ("requirements/tests.txt", {Role.DEPENDENCIES}),
        ("uv.lock", {Role.DEPENDENCIES}),
        ("sub/poetry.lock", {Role.DEPENDENCIES}),
        ("Pipfile", {Role.DEPENDENCIES}),
        ("pylock.toml", {Role.DEPENDENCIES}),
        ("pylock.tests.toml", {Role.DEPENDENCIES}),
        ("docs/notes.txt", {Role.OTHER}),
        ("src/requirements_check.py", {Role.SOURCE}),
    ],
)
def test_roles_of_paths(path: str, roles: set[Role]) -> None:
    assert classify_path(path, POLICY) == roles


def test_pytest_discovery_names() -> None:
    assert is_test_file("a/test_x.py") and is_test_file("x_test.py") and is_test_file("conftest.py")
    assert not is_test_file("test_x.txt") and not is_test_file("tests/helpers.py")


def test_diff_command_prints_json(make_repo: MakeRepo, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    repo = make_repo("r")
    _base(repo)
    repo.write("flake_leases.json", "{}\n")
    repo.commit("lease")
    assert main(["diff", "--repo", str(repo.path), "--base", "main", "--format", "json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["files"] == [
        {
            "path": "flake_leases.json",
            "change": "added",
            "old_path": None,
            "roles": ["leases"],
            "binary": False,
            "gate_input": True,
        }
    ]
    assert main(["diff", "--repo", str(repo.path), "--base", "nope"]) == 2


def test_a_path_that_is_not_utf8_is_refused_with_one_line(make_repo: MakeRepo) -> None:
    repo = make_repo("r")
    _base(repo)
    (repo.path / "tests").mkdir(exist_ok=True)
    (Path(os.fsdecode(bytes(repo.path / "tests") + b"/test_\xff\xfe.py"))).write_text("x = 1\n")
    repo.commit("agent")
    with pytest.raises(GitError) as caught:
        classify_diff(repo.path, "main", POLICY)
    message = caught.value.diagnostic()
    assert "not UTF-8" in message and "\\xff" in message and "\n" not in message


def test_added_files_that_shadow_a_base_module_and_committed_byte_code_are_gate_inputs(
    make_repo: MakeRepo,
) -> None:
    repo = make_repo("r")
    for rel, text in {
        "tests/oracles.py": "X = 1\n",
        "pkg/mod.py": "Y = 1\n",
        "pkg/old.py": "Z\n",
    }.items():
        repo.write(rel, text)
    repo.commit("base")
    repo.write("tests/oracles/__init__.py", "X = 2\n")  # a package beats the module beside it
    repo.write("pkg/mod.cpython-311-x86_64-linux-gnu.so", b"\0")  # so does an extension
    repo.write("tests/__pycache__/oracles.cpython-311.pyc", b"\0")  # committed byte code
    repo.write("tools/helper.pyc", b"\0")
    repo.write("pkg/fresh.py", "W = 1\n")  # a new module shadows nothing
    repo.remove("pkg/old.py")
    repo.write("pkg/old/__init__.py", "Z = 1\n")  # a module turned into a package: nothing left
    repo.commit("head")
    summary = classify_diff(repo.path, "HEAD~1", POLICY)
    shadowing = {f.path for f in summary.files if Role.SHADOWING in f.roles}
    assert shadowing == {
        "tests/oracles/__init__.py",
        "pkg/mod.cpython-311-x86_64-linux-gnu.so",
        "tests/__pycache__/oracles.cpython-311.pyc",
        "tools/helper.pyc",
    }
    assert all(f.is_gate_input for f in summary.files if f.path in shadowing)
    assert not any(f.is_gate_input for f in summary.files if f.path.startswith("pkg/old"))


def test_an_added_top_level_module_named_like_an_installed_or_standard_one_is_a_gate_input(
    make_repo: MakeRepo,
) -> None:
    # red-team pass 9: a root hypothesis/ package came first on sys.path for the base tests (the
    # project's pythonpath = ["."]) and gave them a `given` of its own
    repo = make_repo("r")
    repo.write("pkg/mod.py", "Y = 1\n")
    repo.commit("base")
    for rel in (
        "hypothesis/__init__.py",  # installed
        "src/json.py",  # the standard library's, under src/
        "typing.py",
        "newtool/__init__.py",  # a name nothing else has
        "pkg/types.py",  # inside a package: imported as pkg.types
        "tests/helpers.py",
        "test/__init__.py",  # a test folder, whatever the standard library holds
    ):
        repo.write(rel, "X = 1\n")
    repo.commit("head")
    summary = classify_diff(repo.path, "HEAD~1", POLICY)
    shadowing = {f.path for f in summary.files if Role.SHADOWING in f.roles}
    assert shadowing == {"hypothesis/__init__.py", "src/json.py", "typing.py"}


def test_changed_lines_between_full_ids_are_asked_once_and_names_again(tmp_path: Path) -> None:
    r = Repo(tmp_path / "lines")
    r.write("f.py", "a = 1\nb = 2\n")
    base = r.commit("base")
    r.write("f.py", "a = 1\nb = 3\n")
    head = r.commit("head")
    assert changed_lines(r.path, base, head, "f.py") == frozenset({2})
    assert changed_lines(r.path, base, "HEAD", "f.py") == frozenset({2})
    r.write("f.py", "a = 0\nb = 3\nc = 4\n")
    r.commit("more")
    assert changed_lines(r.path, base, "HEAD", "f.py") == frozenset({1, 2, 3})
    assert changed_lines(r.path, base, head, "f.py") == frozenset({2})
