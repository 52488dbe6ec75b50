"""Installing the tests' dependencies inside the sandbox, into a venv of their own (SPEC 9).

`pip install -e .[test]` runs the head's build backend: a `setup.py`, setuptools importing the
package to read a computed `__version__`, an in-tree backend. That is head code, so it must not run
where lanegate's own files are writable. `install_tests_venv` creates a fresh venv with the standard
library's `venv` (nothing of the head runs), then runs pip inside the sandbox with the host's network
shared (pip needs the package index), the new venv bound writable and nothing else of the machine,
and the work tree the sandbox's usual private copy at its own path: an editable install's path entry
points at the tree, which later sandboxes copy to the same path, and whatever the build writes into
the tree is thrown away with the copy. Afterwards the venv is only ever executed inside the sandbox
(`lanegate.sandbox.interpreter`).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import tempfile
import time
import venv as venv_module
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from lanegate.errors import InstallError
from lanegate.policy import SandboxPolicy
from lanegate.sandbox import OUTPUT_HINT, Sandbox, open_sandbox
from lanegate.sandbox.interpreter import venv_python

OUTPUT_TAIL_BYTES = 16 * 1024
DEFAULT_WALL_SECONDS = 900.0  # a cold download and build on a loaded runner, not one test run
MAX_WALL_SECONDS = 6 * 3600.0  # GitHub's own job limit
# what pip needs from the caller's environment: its own settings, proxies and certificates. Nothing
# else (tokens, the runner's variables) reaches a build that has the network.
_PASS_ENV = frozenset(
    {
        "PATH",
        "LANG",
        "TZ",
        "SOURCE_DATE_EPOCH",
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
        "REQUESTS_CA_BUNDLE",
        "CURL_CA_BUNDLE",
        *(f"{name}{case}" for name in ("HTTP", "HTTPS", "NO", "ALL") for case in ("_PROXY",)),
        *(f"{name}_proxy" for name in ("http", "https", "no", "all")),
    }
)
_PASS_PREFIXES = ("PIP_", "LC_")
_MODULE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


@dataclass(frozen=True, slots=True)
class InstalledVenv:
    """The filled tests venv: its interpreter (`LANEGATE_TESTS_PYTHON`), and what pip said."""

    python: Path
    seconds: float
    output_tail: str


@dataclass(frozen=True, slots=True)
class _Pip:
    """The interpreter whose pip runs the install (`--python` points it at the tests venv)."""

    executable: str
    readable: tuple[Path, ...]


def _pip(python: str) -> _Pip:
    """Resolve `python` (a name on PATH or a path) to the interpreter that has pip, outside the
    sandbox and isolated (`-I`, from `/`): nothing of the tree or the environment is imported."""
    probe = "import os, sys, pip; print(sys.executable); print(sys.prefix); print(sys.base_prefix)"
    try:
        done = subprocess.run(
            [python, "-I", "-c", probe + "; print(os.path.dirname(pip.__path__[0]))"],
            capture_output=True,
            text=True,
            cwd="/",
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InstallError(f"--pip {python}: cannot start it: {exc}") from None
    lines = done.stdout.splitlines()
    if done.returncode != 0 or len(lines) != 4:
        raise InstallError(
            f"--pip {python}: this interpreter has no pip",
            hint="give --pip an interpreter that can run `python -m pip`",
        )
    return _Pip(lines[0], tuple(Path(p) for p in lines[1:]))


def _environment(source: Mapping[str, str]) -> dict[str, str]:
    env = {k: v for k, v in source.items() if k in _PASS_ENV or k.startswith(_PASS_PREFIXES)}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PIP_NO_INPUT"] = "1"
    return env


def _user_pip_config(source: Mapping[str, str]) -> Path | None:
    """The user's pip configuration file: the sandbox's `$HOME` is empty, so it is handed in as
    `PIP_CONFIG_FILE` (read-only). The machine-wide `/etc` files are visible anyway."""
    if source.get("PIP_CONFIG_FILE"):
        return Path(source["PIP_CONFIG_FILE"])
    home = Path(os.path.expanduser("~"))
    config_home = Path(source.get("XDG_CONFIG_HOME") or home / ".config")
    for path in (config_home / "pip" / "pip.conf", home / ".pip" / "pip.conf"):
        if path.is_file():
            return path
    return None


def _shown(data: bytes) -> str:
    """pip's output as text that cannot act on the runner: every line prefixed, so a line of the
    head's build can never start a GitHub workflow command (`::set-output`, `::add-mask::`)."""
    text = data.decode("utf-8", "replace").replace("\r", "\n")
    return "\n".join(f"pip| {line}" for line in text.splitlines() if line.strip())


def _run(
    sandbox: Sandbox,
    argv: list[str],
    env: dict[str, str],
    wall_seconds: float,
    writable: Sequence[Path] = (),
    readable: Sequence[Path] = (),
) -> tuple[int | None, bytes, float]:
    """Run `argv` in `sandbox` with its output in a file outside it (bounded by `sandbox.file_mb`);
    gives the exit code (None on the wall clock), the output's last bytes, and the seconds."""
    command = sandbox.command(argv, env=env, cwd=sandbox.repo, writable=writable, readable=readable)
    with tempfile.TemporaryDirectory(prefix="lanegate-install-") as scratch:
        log_path = Path(scratch) / "output.log"
        started = time.perf_counter()
        with log_path.open("wb") as log:
            proc = subprocess.Popen(
                command.argv,
                cwd=sandbox.repo,
                env=command.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        code: int | None
        try:
            code = proc.wait(timeout=wall_seconds)
        except subprocess.TimeoutExpired:
            code = None
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)  # nothing of the install outlives it
        proc.wait()
        seconds = time.perf_counter() - started
        cut = sandbox.output_passed(f"{Path(argv[0]).name} {' '.join(argv[1:4])}", log_path)
        if cut is not None:
            raise InstallError(cut, hint=OUTPUT_HINT)
        with log_path.open("rb") as log:
            log.seek(max(0, log_path.stat().st_size - OUTPUT_TAIL_BYTES))
            tail = log.read(OUTPUT_TAIL_BYTES)
    return code, tail, seconds


def _fresh_venv(repo: Path, target: Path) -> Path:
    """Create the empty tests venv at `target` (which must not exist, or be an empty folder,
    outside the work tree) with lanegate's own interpreter and the standard library's `venv`."""
    target = target.absolute()
    where = f"--venv {target}"
    resolved = target.resolve()
    if resolved == repo or repo in resolved.parents:
        raise InstallError(f"{where}: inside the work tree {repo}; give a folder outside it")
    if target.is_symlink() or (target.exists() and (not target.is_dir() or any(target.iterdir()))):
        raise InstallError(f"{where}: exists and is not an empty folder; give a new path")
    try:
        venv_module.EnvBuilder(symlinks=True, with_pip=False).create(target)
    except OSError as exc:
        raise InstallError(f"{where}: cannot create the venv: {exc}") from None
    return venv_python(target)


def install_tests_venv(
    repo: Path,
    target: Path,
    pip_args: Sequence[str],
    *,
    pip_python: str,
    limits: SandboxPolicy,
    wall_seconds: float,
    check_imports: Sequence[str] = (),
    environ: Mapping[str, str] | None = None,
) -> InstalledVenv:
    """Create the tests venv at `target` and run `pip install PIP_ARGS` into it inside the sandbox
    over `repo` (network shared), then check that each of `check_imports` imports there (sandboxed,
    no network). Raises `InstallError` when pip fails or passes the wall clock, `SandboxError` when
    no sandbox can be built."""
    source = os.environ if environ is None else environ
    repo = repo.resolve()
    if not pip_args:
        raise InstallError("no pip arguments: nothing to install (e.g. -e .[test])")
    bad = [name for name in check_imports if not _MODULE.match(name)]
    if bad:
        raise InstallError(f"--check-import {bad[0]!r}: not a module name")
    pip = _pip(pip_python)
    python = _fresh_venv(repo, target)
    env = _environment(source)
    readable = list(pip.readable)
    config = _user_pip_config(source)
    if config is not None and config.is_file():
        env["PIP_CONFIG_FILE"] = str(config.resolve())
        readable.append(config.resolve())
    argv = [pip.executable, "-P", "-m", "pip", "--python", str(python), "install", *pip_args]
    with open_sandbox(repo, limits, network=True) as sandbox:
        code, tail, seconds = _run(
            sandbox, argv, env, wall_seconds, writable=[python.parent.parent], readable=readable
        )
        if code is None:
            raise InstallError(
                f"pip install {' '.join(pip_args)} exceeded --wall-seconds {wall_seconds:g}"
            )
        if code != 0:
            shown = _shown(tail)
            last = shown.splitlines()[-1:] or ["(no output)"]
            error = InstallError(
                f"pip install {' '.join(pip_args)} {sandbox.explain_exit(code)} in the sandbox: "
                + last[0].removeprefix("pip| ")
            )
            error.output = shown
            raise error
    with open_sandbox(repo, limits) as offline:
        for name in check_imports:
            checked, said, _ = _run(
                offline,
                [str(python), "-P", "-s", "-c", f"import {name}"],
                {"PATH": env.get("PATH", os.defpath)},
                wall_seconds,
                readable=[python.parent.parent],
            )
            if checked != 0:
                why = _shown(said).splitlines()[-1:] or ["(no output)"]
                raise InstallError(
                    f"the tests venv cannot import {name} (it {offline.explain_exit(checked)}): "
                    + why[0].removeprefix("pip| ")
                )
    return InstalledVenv(python, seconds, _shown(tail))
