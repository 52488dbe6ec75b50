"""The sandbox, with real bubblewrap processes: what a test inside can and cannot reach."""

from __future__ import annotations

import gc
import marshal
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lanegate.errors import SandboxError
from lanegate.sandbox import SandboxPolicy, core, inner, open_sandbox, probe
from lanegate.sandbox.core import python_safe


def _run(
    repo: Path,
    code: str,
    *,
    limits: SandboxPolicy | None = None,
    writable: tuple[Path, ...] = (),
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    with open_sandbox(repo, limits) as sandbox:
        cmd = sandbox.command(
            [sys.executable, "-c", code], env=dict(os.environ), cwd=repo, writable=writable
        )
        return subprocess.run(
            cmd.argv, env=cmd.env, cwd=repo, capture_output=True, text=True, timeout=timeout
        )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("VALUE = 'repo package'\n")
    (root / "data.txt").write_text("original\n")
    return root


def test_repository_modules_cannot_shadow_installed_ones(repo: Path) -> None:
    (repo / "json.py").write_text("raise SystemExit('shadowed json')\n")
    (repo / "pytest.py").write_text("raise SystemExit('shadowed pytest')\n")
    (repo / "test_ok.py").write_text("import json, pkg\ndef test_ok():\n    assert pkg.VALUE\n")
    with open_sandbox(repo) as sandbox:
        cmd = sandbox.command(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_ok.py"],
            env=dict(os.environ),
            cwd=repo,
        )
        done = subprocess.run(cmd.argv, env=cmd.env, cwd=repo, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout


def test_writes_stay_in_the_private_copy(repo: Path) -> None:
    code = (
        "import os, pathlib\n"
        "pathlib.Path('data.txt').write_text('changed')\n"
        "pathlib.Path('new.txt').write_text('new')\n"
        "print(open('data.txt').read())\n"
    )
    done = _run(repo, code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "changed"  # the tree is writable inside...
    assert (repo / "data.txt").read_text() == "original\n"  # ...and untouched outside
    assert not (repo / "new.txt").exists()


def test_links_that_leave_the_tree_are_not_copied(repo: Path, tmp_path: Path) -> None:
    (tmp_path / "victim").mkdir()
    (tmp_path / "victim" / "precious.txt").write_text("secret\n")
    (repo / "tests").mkdir()
    (repo / "tests" / "root").symlink_to("/")
    (repo / "tests" / "passwd.py").symlink_to("/etc/passwd")
    (repo / "tests" / "victim").symlink_to("../../victim")
    (repo / "pkg" / "up").symlink_to(".")  # inside: the tree's own folder...
    (repo / "tests" / "via").symlink_to("../pkg/up/..")  # ...and the root through it: inside
    (repo / "tests" / "out").symlink_to("../pkg/up/../..")  # one more `..`: outside
    (repo / "tests" / "chain").symlink_to("victim")  # a link to a link that leaves
    (repo / "tests" / "data").symlink_to("../data.txt")
    code = (
        "import os\n"
        "for name in sorted(os.listdir('tests')):\n"
        "    print(name, os.path.exists(os.path.join('tests', name)))\n"
    )
    done = _run(repo, code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n") == ["data True", "via True", ""]
    assert (repo / "tests" / "root").is_symlink()  # the checkout keeps them all


def test_home_is_private_and_the_real_one_unreadable(repo: Path, tmp_path: Path) -> None:
    home = Path.home()
    secret = home / f"lanegate-test-secret-{os.getpid()}"
    secret.write_text("do not read")
    try:
        code = (
            "import os, pathlib\n"
            f"print(pathlib.Path({str(secret)!r}).exists())\n"
            "pathlib.Path(os.path.expanduser('~'), 'x').write_text('y')\n"
            "print(os.environ['HOME'])\n"
        )
        done = _run(repo, code)
    finally:
        secret.unlink()
    assert done.returncode == 0, done.stderr
    seen, inner_home = done.stdout.split()
    assert seen == "False"
    assert inner_home != str(home) and not (home / "x").exists()


def test_a_sandbox_nobody_closed_releases_what_it_holds_when_collected(repo: Path) -> None:
    (repo / ".git").mkdir()
    (repo / ".git" / "config").write_text("[core]\n\tbare = false\n")
    sandbox = open_sandbox(repo)
    sandbox.command([sys.executable, "-c", "pass"], env={})  # makes its private folder
    held = [*sandbox._private, *([sandbox.cap.path] if sandbox.cap.path is not None else [])]
    assert held and all(path.exists() for path in held)
    del sandbox
    gc.collect()
    assert not any(path.exists() for path in held)


def test_closing_releases_and_a_reused_sandbox_is_released_again(repo: Path) -> None:
    sandbox = open_sandbox(repo, enabled=True)
    sandbox.command([sys.executable, "-c", "pass"], env={}, overlays={})
    sandbox._spec_file(b"x")
    first = list(sandbox._private)
    sandbox.close()
    sandbox.close()  # a second close is harmless
    assert first and not any(path.exists() for path in first)
    sandbox._spec_file(b"y")
    second = list(sandbox._private)
    del sandbox
    gc.collect()
    assert second and not any(path.exists() for path in second)


def test_the_runners_temporary_folder_is_unreadable(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # outside /tmp and $HOME, as a self-hosted runner's `_work/_temp` is: step scripts and the
    # files behind GITHUB_ENV live there, secrets rendered into them as plain text
    runner_temp = Path(tempfile.mkdtemp(prefix="lanegate-runner-temp-", dir="/var/tmp"))
    try:
        (runner_temp / "step.sh").write_text("curl -H 'Authorization: token s3cr3t'\n")
        monkeypatch.setenv("RUNNER_TEMP", str(runner_temp))
        code = f"import pathlib\nprint(pathlib.Path({str(runner_temp / 'step.sh')!r}).exists())\n"
        done = _run(repo, code)
    finally:
        shutil.rmtree(runner_temp)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False"]


def test_a_runner_temp_that_is_no_place_to_mask_is_left_alone(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    masked = [Path("/tmp").resolve()]
    (tmp_path / "other").mkdir()
    # unset, the root, missing, the tree's own parent, one a mask already covers
    for value in ("", "/", str(tmp_path / "missing"), str(repo.parent), str(tmp_path / "other")):
        monkeypatch.setenv("RUNNER_TEMP", value)
        assert core._runner_temp(masked, repo) is None, value
    monkeypatch.setenv("RUNNER_TEMP", "/var/tmp")
    assert core._runner_temp(masked, repo) == Path("/var/tmp").resolve()


def test_only_the_given_directory_is_writable_outside(repo: Path, tmp_path: Path) -> None:
    outbox, other = tmp_path / "outbox", tmp_path / "other"
    outbox.mkdir()
    other.mkdir()
    code = (
        f"open({str(outbox / 'r.json')!r}, 'w').write('{{}}')\n"
        "try:\n"
        f"    open({str(other / 'r.json')!r}, 'w').write('x')\n"
        "except OSError as exc:\n"
        "    print('refused', exc.errno)\n"
    )
    done = _run(repo, code, writable=(outbox,))
    assert done.returncode == 0, done.stderr
    assert (outbox / "r.json").read_text() == "{}"
    assert not (other / "r.json").exists()
    assert done.stdout.startswith("refused")


def test_no_network_not_even_to_the_hosts_loopback(repo: Path) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    code = (
        "import socket\n"
        "s = socket.socket()\n"
        "s.settimeout(5)\n"
        f"print(s.connect_ex(('127.0.0.1', {port})))\n"
    )
    try:
        done = _run(repo, code)
    finally:
        server.close()
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() != "0"  # the sandbox's loopback is its own


def _marked(marker: bytes) -> list[int]:
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                cmdline = Path(entry.path, "cmdline").read_bytes()
                stat = Path(entry.path, "stat").read_bytes()
            except OSError:
                continue
            if marker in cmdline and stat[stat.rfind(b")") + 2 :][:1] != b"Z":
                found.append(int(entry.name))
    return found


def test_a_setsid_daemon_dies_with_the_sandbox(repo: Path) -> None:
    marker = f"lanegate-daemon-{os.getpid()}"
    code = (
        "import os, subprocess, sys\n"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)', "
        f"{marker!r}], start_new_session=True, stdout=subprocess.DEVNULL)\n"
        "print('started')\n"
    )
    done = _run(repo, code)
    assert done.stdout.strip() == "started"
    deadline = time.monotonic() + 10
    while _marked(marker.encode()) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _marked(marker.encode())


def test_memory_limit_turns_a_huge_allocation_into_memory_error(repo: Path) -> None:
    code = (
        "try:\n"
        "    block = bytearray(8 * 1024 ** 3)\n"
        "    print('allocated')\n"
        "except MemoryError:\n"
        "    print('refused')\n"
    )
    done = _run(repo, code, limits=SandboxPolicy(memory_mb=512))
    assert done.stdout.strip() == "refused", done.stderr


def test_file_limit_bounds_a_flood_of_output(repo: Path) -> None:
    # CPython ignores SIGXFSZ (the write fails with EFBIG instead); a shell is killed by it
    flood_py = (
        "import sys\nchunk = b'x' * 1048576\nwhile True:\n    sys.stdout.buffer.write(chunk)\n"
    )
    flood_sh = "yes xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
    limits = SandboxPolicy(file_mb=4)
    log_path = repo.parent / "flood.log"
    with open_sandbox(repo, limits) as sandbox:
        for argv in ([sys.executable, "-c", flood_py], ["/bin/sh", "-c", flood_sh]):
            cmd = sandbox.command(argv, env=dict(os.environ), cwd=repo)
            with log_path.open("wb") as log:
                done = subprocess.run(
                    cmd.argv, env=cmd.env, cwd=repo, stdout=log, stderr=subprocess.PIPE, timeout=60
                )
            assert done.returncode != 0
            assert log_path.stat().st_size <= 4 * 1024 * 1024
        reason = sandbox.explain_exit(done.returncode)
    assert "SIGXFSZ" in reason and "sandbox.file_mb = 4" in reason, reason


def test_process_cap_stops_a_fork_bomb(repo: Path) -> None:
    code = (
        "import os, time\n"
        "n = 0\n"
        "for _ in range(200):\n"
        "    try:\n"
        "        pid = os.fork()\n"
        "    except OSError:\n"
        "        break\n"
        "    if pid == 0:\n"
        "        time.sleep(5)\n"
        "        os._exit(0)\n"
        "    n += 1\n"
        "print(n)\n"
        "os._exit(0)\n"
    )
    done = _run(repo, code, limits=SandboxPolicy(processes=30))
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) < 30


def test_private_tmp_is_size_bounded(repo: Path) -> None:
    code = (
        "chunk = b'x' * 1048576\n"
        "written = 0\n"
        "try:\n"
        "    with open('/tmp/fill', 'wb') as f:\n"
        "        for _ in range(64):\n"
        "            f.write(chunk); f.flush(); written += 1\n"
        "except OSError as exc:\n"
        "    print('full', exc.errno)\n"
        "print(written)\n"
    )
    done = _run(repo, code, limits=SandboxPolicy(disk_mb=8, file_mb=1024))
    assert done.stdout.startswith("full"), done.stdout + done.stderr
    assert int(done.stdout.split()[-1]) <= 8


def test_a_missing_command_is_named(repo: Path) -> None:
    with open_sandbox(repo) as sandbox:
        cmd = sandbox.command(["no-such-tool-xyz"], env=dict(os.environ), cwd=repo)
        done = subprocess.run(cmd.argv, env=cmd.env, cwd=repo, capture_output=True, text=True)
    assert done.returncode == 127
    assert "cannot start 'no-such-tool-xyz'" in done.stderr


def test_no_bwrap_fails_closed_with_one_line(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    probe.check.cache_clear()
    monkeypatch.setenv("PATH", str(repo))
    try:
        with pytest.raises(SandboxError) as caught:
            open_sandbox(repo)
    finally:
        probe.check.cache_clear()
    assert "bubblewrap (bwrap) is not installed" in caught.value.diagnostic()
    assert "\n" not in caught.value.diagnostic()


def test_disabled_sandbox_passes_through_and_says_so(repo: Path) -> None:
    sandbox = open_sandbox(repo, enabled=False)
    cmd = sandbox.command(["echo", "hi"], env={"A": "1"})
    assert cmd.argv == ["echo", "hi"] and cmd.env == {"A": "1"}
    assert sandbox.record.mode == "none"
    assert open_sandbox(repo).record.mode == "bwrap"


_OPTIONS = st.lists(st.sampled_from(["-B", "-u", "-E", "-O", "-W", "-X"]), max_size=4)


@given(st.lists(st.text(min_size=1, max_size=8), max_size=5), _OPTIONS)
def test_python_safe_inserts_the_boot_only_for_lanegates_interpreter(
    rest: list[str], options: list[str]
) -> None:
    flat: list[str] = []
    for option in options:
        flat += [option, "error"] if option in ("-W", "-X") else [option]
    argv = [sys.executable, *flat, "-m", "pytest", *rest]
    safe = python_safe(argv)
    at = safe.index("-P")
    assert safe[:at] == [sys.executable, *flat]
    assert safe[at + 1] == "-s" and safe[at + 2].endswith("boot.py")
    assert Path(safe[at + 3], "lanegate", "sandbox", "boot.py").is_file()
    assert safe[at + 4 :] == ["-m", "pytest", *rest]
    assert python_safe(["/bin/sh", *rest]) == ["/bin/sh", *rest]


def test_a_spec_too_long_for_one_argument_reaches_the_sandbox_as_a_file(repo: Path) -> None:
    # a diff that added 20,000 files: the base tree leaves them out of its copy, a list longer
    # than Linux lets one argument be (128 KiB), which failed the exec with E2BIG
    added = [f"assets/d{i:05d}/test_data_{i:05d}.py" for i in range(20_000)]
    present = [*added[:3], *added[-2:]]
    for name in present:
        (repo / name).parent.mkdir(parents=True)
        (repo / name).write_text("x = 1\n")
    code = f"import os\nprint([os.path.exists(p) for p in {present!r}], os.path.exists('data.txt'))"
    with open_sandbox(repo) as sandbox:
        cmd = sandbox.command(
            [sys.executable, "-c", code], env=dict(os.environ), cwd=repo, removed=added[1:-1]
        )
        spec = cmd.argv[cmd.argv.index("--", cmd.argv.index("-S")) - 1]
        assert spec.startswith("@")
        done = subprocess.run(
            cmd.argv, env=cmd.env, cwd=repo, capture_output=True, text=True, timeout=60
        )
        folders = list(sandbox._private)
        assert [f for folder in folders for f in folder.glob("*.spec")]
    assert done.returncode == 0, done.stderr
    # the first and the last are kept, the three between them dropped, the rest of the tree copied
    assert done.stdout.split() == ["[True,", "False,", "False,", "False,", "True]", "True"]
    assert not any(folder.exists() for folder in folders)  # removed when the sandbox closed


def test_a_short_spec_stays_one_argument(repo: Path) -> None:
    with open_sandbox(repo) as sandbox:
        cmd = sandbox.command([sys.executable, "-c", "pass"], env=dict(os.environ), cwd=repo)
        inline = cmd.argv[cmd.argv.index("--", cmd.argv.index("-S")) - 1]
        spec = marshal.loads(bytes.fromhex(inline))
        assert spec["target"] == str(repo) and spec["cwd"] == str(repo)
        assert not [f for folder in sandbox._private for f in folder.glob("*.spec")]


@pytest.mark.parametrize(
    "spec_arg",
    ["zz", "", marshal.dumps([1, 2]).hex(), marshal.dumps({"source": "/"}).hex(), "@/nonexistent"],
)
def test_a_malformed_spec_fails_the_setup_in_one_line(spec_arg: str) -> None:
    done = subprocess.run(
        [sys.executable, "-I", "-S", inner.__file__, spec_arg, "--", "true"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == inner.SETUP_FAILED_EXIT, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(inner.MARKER + "setup failed: "), line


def test_a_sandbox_whose_cgroup_was_swept_between_commands_makes_it_again(repo: Path) -> None:
    # an empty pids cgroup between two commands is fair game for a sweep of leftovers (a test
    # session's clean-up beside this run removed it): the next command must not fail to start
    with open_sandbox(repo, SandboxPolicy(processes=30)) as sandbox:
        group = sandbox.cap.path
        assert sandbox.cap.kind == "cgroup" and group is not None, "needs root and a pids cgroup"
        for swept in (False, True):
            if swept:
                # the last command's processes leave the group as they are reaped: wait for it
                # to be empty (a sweep removes only empty groups), then remove it
                deadline = time.monotonic() + 30
                while (group / "cgroup.procs").read_text().strip():
                    assert time.monotonic() < deadline, "the cgroup never emptied"
                    time.sleep(0.05)
                group.rmdir()
            cmd = sandbox.command([sys.executable, "-c", "print('ran')"], env=dict(os.environ))
            done = subprocess.run(cmd.argv, env=cmd.env, cwd=repo, capture_output=True, text=True)
            assert done.returncode == 0 and done.stdout == "ran\n", done.stderr
            assert (group / "pids.max").read_text().strip() == "30"


def test_hidden_folders_outside_the_tree_are_empty_inside(repo: Path) -> None:
    # /var/tmp: outside the tree and outside every mask the sandbox always makes (/tmp, $HOME)
    outside = Path(tempfile.mkdtemp(prefix="lanegate-hidden-", dir="/var/tmp"))
    try:
        (outside / "other-candidate.txt").write_text("another candidate's tree\n")
        code = (
            "import os, sys; "
            f"sys.stdout.write(repr(os.listdir({str(outside)!r})) if os.path.isdir({str(outside)!r})"
            " else 'absent')"
        )
        with open_sandbox(repo, hidden=(outside,)) as sandbox:
            cmd = sandbox.command([sys.executable, "-c", code], env=dict(os.environ), cwd=repo)
            done = subprocess.run(
                cmd.argv, env=cmd.env, cwd=repo, capture_output=True, text=True, timeout=60
            )
        assert done.returncode == 0, done.stderr
        assert "other-candidate" not in done.stdout
        with open_sandbox(repo) as sandbox:  # not hidden: readable, as the rest of the disk
            cmd = sandbox.command([sys.executable, "-c", code], env=dict(os.environ), cwd=repo)
            seen = subprocess.run(
                cmd.argv, env=cmd.env, cwd=repo, capture_output=True, text=True, timeout=60
            )
        assert "other-candidate" in seen.stdout
    finally:
        shutil.rmtree(outside)


def _fill(path: str, mb: int) -> str:
    """Code writing up to `mb` MiB to `path`, printing `full <errno>` at the first failed write and
    then the MiB written."""
    return (
        "chunk = b'x' * 1048576\n"
        "written = 0\n"
        "try:\n"
        f"    with open({path!r}, 'wb') as f:\n"
        f"        for _ in range({mb}):\n"
        "            f.write(chunk); f.flush(); written += 1\n"
        "except OSError as exc:\n"
        "    print('full', exc.errno)\n"
        "print(written)\n"
    )


def test_every_tmpfs_of_the_sandbox_has_a_size(repo: Path) -> None:
    """Red team: `--dev /dev` and the `--tmpfs` covers of git's folders were unsized (a sandbox
    could fill the host's memory through them)."""
    (repo / ".git" / "logs").mkdir(parents=True)  # a git folder the sandbox covers
    (repo / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    with open_sandbox(repo) as sandbox:
        argv = sandbox.command([sys.executable, "-c", "pass"], env={}, cwd=repo).argv
    tmpfs = [i for i, arg in enumerate(argv) if arg == "--tmpfs"]
    assert tmpfs
    assert all(argv[i - 2] == "--size" and int(argv[i - 1]) > 0 for i in tmpfs), argv
    assert argv[argv.index("--dev") + 2 :].count("--remount-ro") >= 1
    assert argv[argv.index("--remount-ro") + 1] == "/dev"


@pytest.mark.parametrize(
    ("where", "errno_name"),
    [
        (f"{core.SOURCE_MOUNT}/.git/fill", "ENOSPC"),  # a cover: at most COVER_MB
        ("/dev/shm/fill", "ENOSPC"),  # at most disk_mb
        ("/dev/fill", "EROFS"),  # /dev's own tmpfs cannot be sized: it is read-only
    ],
)
def test_a_write_past_a_tmpfs_bound_fails_inside(repo: Path, where: str, errno_name: str) -> None:
    import errno

    (repo / ".git").mkdir()
    done = _run(repo, _fill(where, 64), limits=SandboxPolicy(disk_mb=8, file_mb=1024))
    assert done.stdout.startswith(f"full {getattr(errno, errno_name)}"), done.stdout + done.stderr
    assert int(done.stdout.split()[-1]) <= 8


def test_dev_stays_usable_under_its_read_only_mount(repo: Path) -> None:
    code = (
        "import os\n"
        "open('/dev/null', 'w').write('x')\n"
        "assert len(open('/dev/urandom', 'rb').read(8)) == 8\n"
        "open('/dev/shm/sem', 'w').write('x')\n"
        "print('ok')\n"
    )
    done = _run(repo, code)
    assert done.stdout.strip() == "ok", done.stdout + done.stderr


def test_output_that_reached_file_mb_is_named_with_its_process_and_bound(repo: Path) -> None:
    """Red team: a process's captured output was bounded only by `file_mb`, silently; a run whose
    output was cut must fail closed saying which process and which bound."""
    flood = "import sys\nchunk = b'x' * 65536\nwhile True:\n    sys.stdout.buffer.write(chunk)\n"
    log_path = repo.parent / "flood.log"
    with open_sandbox(repo, SandboxPolicy(file_mb=2)) as sandbox:
        cmd = sandbox.command([sys.executable, "-c", flood], env=dict(os.environ), cwd=repo)
        with log_path.open("wb") as log:
            subprocess.run(cmd.argv, env=cmd.env, cwd=repo, stdout=log, stderr=log, timeout=60)
        said = sandbox.output_passed("the flood (pytest)", log_path)
        quiet = repo.parent / "quiet.log"
        quiet.write_bytes(b"short\n")
        assert sandbox.output_passed("a quiet one", quiet) is None
    assert log_path.stat().st_size <= 2 * 1024 * 1024
    assert said is not None
    assert said.startswith("the flood (pytest): its captured output (flood.log) reached")
    assert "sandbox.file_mb = 2 MiB" in said


def test_a_fixture_case_whose_output_was_cut_is_an_error_naming_the_bound(
    repo: Path, tmp_path: Path
) -> None:
    from lanegate.lanes.fixture import process

    stdin = tmp_path / "stdin"
    stdin.write_bytes(b"")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    with open_sandbox(repo, SandboxPolicy(file_mb=1)) as sandbox:
        ended = process.spawn(
            ["/bin/sh", "-c", "yes flooding-the-log"],
            repo=repo,
            stdin_path=stdin,
            scratch=scratch,
            env=dict(os.environ),
            timeout=60,
            sandbox=sandbox,
        )
    assert isinstance(ended, str), ended
    assert ended.startswith("fixture case '/bin/sh': its captured output (stdout) reached")
    assert "sandbox.file_mb = 1 MiB" in ended
