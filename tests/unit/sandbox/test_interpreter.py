"""The tests' interpreter: which one, its venv read-only inside the sandbox, never run outside it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import venv
from pathlib import Path

import pytest

import lanegate
from lanegate.errors import SandboxError
from lanegate.lanes import pytest_plugins
from lanegate.sandbox import open_sandbox, sandbox_interpreter, sandbox_python
from lanegate.sandbox.core import python_safe
from lanegate.sandbox.interpreter import MAX_METADATA_BYTES, TESTS_PYTHON_ENV, UNREADABLE


@pytest.fixture
def tests_venv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A real, empty venv (no pip) named by LANEGATE_TESTS_PYTHON."""
    where = tmp_path / "tests-venv"
    venv.EnvBuilder(symlinks=True, with_pip=False).create(where)
    monkeypatch.setenv(TESTS_PYTHON_ENV, str(where / "bin" / "python"))
    return where


def _site(where: Path) -> Path:
    (site,) = sandbox_interpreter().site_packages()
    assert site.parent.parent.parent == where
    return site


def _dist(site: Path, name: str, version: str, **files: str) -> Path:
    info = site / f"{name}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    for file_name, text in files.items():
        (info / file_name).write_text(text)
    return info


def test_default_is_lanegates_own_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TESTS_PYTHON_ENV, raising=False)
    assert sandbox_python() == sys.executable
    assert not sandbox_interpreter().separate
    assert sandbox_interpreter().distributions() == []


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("venv/bin/python", "not an absolute path"),
        ("/usr/bin/python3", "not the bin/python of a venv"),
    ],
)
def test_a_value_that_is_no_venv_is_refused_in_one_line(
    value: str, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TESTS_PYTHON_ENV, value)
    with pytest.raises(SandboxError) as caught:
        sandbox_python()
    assert TESTS_PYTHON_ENV in caught.value.diagnostic()
    assert said in caught.value.diagnostic()
    with pytest.raises(SandboxError):
        open_sandbox(Path.cwd())


def test_a_venv_python_that_is_not_there_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "v" / "bin").mkdir(parents=True)
    (tmp_path / "v" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    monkeypatch.setenv(TESTS_PYTHON_ENV, str(tmp_path / "v" / "bin" / "python"))
    with pytest.raises(SandboxError, match="no such file"):
        sandbox_python()


def test_a_separate_venv_is_named_and_never_runs_unsandboxed(tests_venv: Path) -> None:
    assert sandbox_python() == str(tests_venv / "bin" / "python")
    assert sandbox_interpreter().venv == tests_venv
    with pytest.raises(SandboxError, match="--no-sandbox"):
        open_sandbox(tests_venv.parent, enabled=False)


def test_python_safe_starts_the_tests_python_through_boot(tests_venv: Path) -> None:
    argv = python_safe([sandbox_python(), "-B", "-m", "pytest", "-q"])
    root = str(Path(lanegate.__file__).resolve().parent.parent)
    assert argv[:4] == [sandbox_python(), "-B", "-P", "-s"]
    assert argv[5:] == [root, "-m", "pytest", "-q"]
    assert python_safe(["/bin/echo", "x"]) == ["/bin/echo", "x"]


def test_inside_the_sandbox_the_tests_venv_runs_read_only_and_imports_lanegate(
    tests_venv: Path, tmp_path: Path
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    code = (
        "import json, sys, lanegate\n"
        "try:\n"
        "    open(sys.prefix + '/planted.pth', 'w').write('import os')\n"
        "    wrote = True\n"
        "except OSError:\n"
        "    wrote = False\n"
        "print(json.dumps({'prefix': sys.prefix, 'lanegate': lanegate.__file__, 'wrote': wrote}))\n"
    )
    with open_sandbox(repo) as sandbox:
        cmd = sandbox.command([sandbox_python(), "-c", code], env=dict(os.environ), cwd=repo)
        done = subprocess.run(cmd.argv, env=cmd.env, cwd=repo, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    seen = json.loads(done.stdout)
    # /tmp is an empty tmpfs inside: the venv (under tmp_path) is there only because it is bound
    assert seen["prefix"] == str(tests_venv)
    assert seen["lanegate"] == lanegate.__file__
    assert seen["wrote"] is False
    assert not (tests_venv / "planted.pth").exists()


def test_distributions_are_read_as_bounded_data(tests_venv: Path) -> None:
    site = _site(tests_venv)
    _dist(site, "plugged", "1.2", **{"entry_points.txt": "[pytest11]\nplugged = plugged\n"})
    _dist(site, "project", "0.1", **{"direct_url.json": '{"dir_info": {"editable": true}}'})
    fifo = site / "waits-1.0.dist-info"
    fifo.mkdir()
    os.mkfifo(fifo / "METADATA")  # read blocking, this would hang the orchestrator
    big = site / "big-1.0.dist-info"
    big.mkdir()
    (big / "METADATA").write_bytes(b"Name: big\n" + b"x" * (MAX_METADATA_BYTES + 1))
    linked = site / "linked-1.0.dist-info"
    linked.mkdir()
    (linked / "METADATA").symlink_to("/etc/passwd")
    (site / "elsewhere-1.0.dist-info").symlink_to(site / "plugged-1.2.dist-info")

    found = {
        (d.name, d.version, d.editable, d.pytest_plugin)
        for d in sandbox_interpreter().distributions()
    }
    assert found == {
        ("plugged", "1.2", False, True),
        ("project", "0.1", True, False),
        (UNREADABLE, UNREADABLE, False, False),
    }
    assert pytest_plugins.installed() == {"plugged": "1.2"}


def test_the_pytest_plugin_decisions_follow_the_tests_venv(tests_venv: Path) -> None:
    site = _site(tests_venv)
    _dist(site, "pytest_xdist", "3.8.0", **{"entry_points.txt": "[pytest11]\nxdist = xdist\n"})
    assert pytest_plugins.extra_args() == ("-n", "0", "--dist=no")


def test_the_network_mode_shares_the_hosts_network_and_says_so(tmp_path: Path) -> None:
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    code = (
        "import socket, sys\n"
        f"try:\n    socket.create_connection(('127.0.0.1', {port}), timeout=5)\n"
        "except OSError:\n    sys.exit(3)\n"
    )
    outcomes = {}
    try:
        for network in (False, True):
            with open_sandbox(tmp_path, network=network) as sandbox:
                cmd = sandbox.command([sys.executable, "-c", code], env=dict(os.environ))
                done = subprocess.run(cmd.argv, env=cmd.env, capture_output=True, timeout=60)
                outcomes[network] = (done.returncode, sandbox.record.network)
    finally:
        server.close()
    assert outcomes == {False: (3, False), True: (0, True)}


def test_a_relinked_venv_python_binds_nothing_it_points_at(
    tests_venv: Path, tmp_path: Path
) -> None:
    """The install may rewrite anything in the tests venv: its bin/python pointing into a masked
    folder (a secret under /tmp or $HOME) must not make the sandbox bind that folder."""
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "python").write_text("not an interpreter\n")
    python = tests_venv / "bin" / "python"
    python.unlink()
    python.symlink_to(secret / "python")
    repo = tmp_path / "repo"
    repo.mkdir()
    with open_sandbox(repo) as box:
        argv = box.command([sandbox_python(), "-c", "pass"], env={}).argv
    assert str(tests_venv) in argv
    assert not any(str(secret) in arg for arg in argv)
