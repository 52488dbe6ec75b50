"""The sandbox of one lane run: the mount plan, the limits, and the command that enters it."""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import marshal
import os
import re
import signal
import site
import subprocess
import sys
import sysconfig
import tempfile
import threading
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Self

import lanegate
from lanegate import git, treewalk
from lanegate.errors import GitError, SandboxError
from lanegate.ledgers.models import SandboxLimitsRecord, SandboxRecord
from lanegate.policy import SandboxPolicy
from lanegate.sandbox import boot, bytecode, git_config, inner, probe
from lanegate.sandbox.environment import passed_environment
from lanegate.sandbox.frozen import FrozenTree, stage_frozen
from lanegate.sandbox.interpreter import sandbox_interpreter
from lanegate.sandbox.pids import ProcessCap, process_cap
from lanegate.sandbox.staging import StagingPlace, make_private_folder, staging_place
from lanegate.treewalk import tree_bytes

MB = 1024 * 1024
SOURCE_MOUNT = "/run/lanegate-tree"
# a setup spec past this many bytes (the files a diff added, left out of the copy, can be thousands)
# goes to `inner.py` as a file bound here, not as one argument: Linux refuses an exec whose single
# argument passes 128 KiB (MAX_ARG_STRLEN) with E2BIG
SPEC_MOUNT = "/run/lanegate-spec"
MAX_INLINE_SPEC = 64 * 1024
SANDBOX_TMP = "/tmp"  # a private tmpfs in every sandbox, and its commands' TMPDIR by default
SANDBOX_HOME = "/tmp/home"
RUN_MB = 64  # /run holds only the read-only view of the tree's source
# a folder that covers a hidden one (`.git` and a hidden folder in the source view, git's own
# folders such as `.git/logs`) is meant to stay empty: its tmpfs holds at most this much
COVER_MB = 1
# what to do when a process's captured output reached `sandbox.file_mb` (`Sandbox.output_passed`)
OUTPUT_HINT = (
    "make the tests print less (a loop printing, a debug log level), or raise sandbox.file_mb"
)
_PYTHON_ENV_DROP = (
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONSTARTUP",
    "PYTHONUSERBASE",
    "PYTHONEXECUTABLE",
    "PYTHONPLATLIBDIR",
    "PYTHONINSPECT",
    "PYTHONSAFEPATH",
    "PYTHONNOUSERSITE",
    "LD_LIBRARY_PATH",
    "LD_AUDIT",
)
# Python options that take no value and may stand before -m/-c/script in a lane's command
_PY_FLAGS = frozenset(
    {"-B", "-u", "-E", "-s", "-S", "-O", "-OO", "-b", "-bb", "-d", "-q", "-P", "-I"}
)
_PY_VALUED = frozenset({"-W", "-X"})


@dataclass(frozen=True, slots=True)
class SandboxedCommand:
    """The argv and environment to start (the command itself runs inside the sandbox)."""

    argv: list[str]
    env: dict[str, str]


def _trusted_dirs() -> list[Path]:
    """Where lanegate's interpreter and modules live, and the tests' venv when it is a separate one:
    always the real, read-only ones inside."""
    found = {
        Path(sys.prefix),
        Path(sys.base_prefix),
        Path(sys.exec_prefix),
        Path(lanegate.__file__).resolve().parent,
        Path(sys.executable).resolve().parent,
    }
    for name in ("stdlib", "platstdlib", "purelib", "platlib"):
        found.add(Path(sysconfig.get_paths()[name]))
    found.update(Path(p) for p in site.getsitepackages())
    tests = sandbox_interpreter()
    if tests.venv is not None:
        # the venv only, never where its (head-writable) bin/python link points: lanegate made it
        # from its own base interpreter, which is bound above
        found.add(tests.venv)
    return sorted({p.resolve() for p in found if p.is_dir()})


@functools.cache
def _site_dirs() -> tuple[Path, ...]:
    """The folders lanegate's interpreter imports from once its site set-up ran, `.pth` files
    included (one may add a folder anywhere: a venv that reaches another's packages through
    `site.addsitedir`), computed by that interpreter started as the sandbox starts it (`-s`, no
    PYTHONPATH). Only lanegate's own interpreter: a separate tests venv is never started outside."""
    code = "import sys; print(repr(sys.path))"
    try:
        done = subprocess.run(
            [sys.executable, "-E", "-P", "-s", "-c", code],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        listed = ast.literal_eval(done.stdout.strip())
    except (OSError, subprocess.SubprocessError, ValueError, SyntaxError) as exc:
        raise SandboxError(
            f"{sys.executable}: could not list its import path ({exc})",
            hint="check that lanegate's interpreter starts: run it with -c 'import sys'",
        ) from exc
    return tuple(Path(p) for p in listed if isinstance(p, str) and os.path.isabs(p))


def _hidden_imports(masked: Sequence[Path], repo: Path, hidden: Sequence[Path] = ()) -> list[Path]:
    """Folders of lanegate's own environment (`_trusted_dirs`, and the `_site_dirs` folders that
    hold lanegate or its dependencies, `_own_site_dir`) outside the tree that a mask would hide:
    bound read-only at their own path so the sandboxed interpreter still finds pytest and lanegate
    there. One that is a mask itself (or holds one) would undo the mask: `SandboxError` naming it.

    A mask wins over this convenience: any other folder a `.pth` file adds (the project under
    test installed editable from a checkout the sandbox hides, whose `src/` would shadow the
    tree's own modules) stays hidden, and is said once on stderr; the tree under test provides
    its own import path. Nothing inside a folder the caller asked to hide is bound."""
    trusted = set(_trusted_dirs())
    sites = {p.resolve() for p in _site_dirs() if p.is_dir()} - trusted
    found = []
    for path in sorted(trusted | sites):
        if _inside(path, repo) or not any(_inside(path, m) for m in masked):
            continue
        if path in sites and any(_inside(path, t) for t in trusted):
            continue  # inside lanegate's own folders (lib-dynload under the prefix): bound with them
        if any(_inside(path, h) for h in hidden) or (path in sites and not _own_site_dir(path)):
            if path != Path(lanegate.__file__).resolve().parent.parent:  # lanegate's is bound
                _say_left_hidden(path)
            continue
        cover = next((m for m in masked if _inside(m, path)), None)
        if cover is not None:
            raise SandboxError(
                f"{path}: lanegate's interpreter imports from it (its prefix or a .pth file of "
                f"its site-packages adds it), and the sandbox replaces {cover} with an empty "
                "folder, so pytest and lanegate would be missing inside",
                hint="install lanegate and the tests' dependencies into a venv outside "
                f"{cover}, or remove the .pth line that adds {path}",
            )
        found.append(path)
    return found


# the top-level modules whose distributions (with all they require) make lanegate's environment
# inside the sandbox: lanegate itself, and the test runners its lanes start there
_OWN_MODULES = ("lanegate", "pytest", "hypothesis")


@functools.cache
def _own_distributions() -> frozenset[str]:
    """The normalized names of the distributions of `_OWN_MODULES` and of every distribution they
    require, transitively (lanegate's own extras included, no other distribution's extras)."""
    provided = importlib.metadata.packages_distributions()
    roots = {_normalized(d) for module in _OWN_MODULES for d in provided.get(module, [])}
    own = {_normalized(d) for d in provided.get("lanegate", [])}  # whose extras count
    todo = sorted(roots)
    names: set[str] = set()
    while todo:
        name = todo.pop()
        if name in names:
            continue
        names.add(name)
        try:
            requires = importlib.metadata.requires(name) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        for line in requires:
            found = re.match(r"[A-Za-z0-9._-]+", line)
            if found and (name in own or "extra" not in line.partition(";")[2]):
                todo.append(_normalized(found.group(0)))
    return frozenset(names)


def _normalized(name: str) -> str:
    """A distribution name as PEP 503 compares it."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _own_site_dir(path: Path) -> bool:
    """Whether a folder a `.pth` file adds is a site-packages of lanegate's environment: it holds
    the installed metadata (`*.dist-info`) of lanegate or one of its dependencies. A source
    checkout's `*.egg-info` (`setup.py develop`) does not count: that is the project's own tree."""
    own = _own_distributions()
    try:
        entries = [e.name for e in os.scandir(path)]
    except OSError:
        return False
    for entry in entries:
        stem, dot, kind = entry.rpartition(".")
        if dot and kind == "dist-info":
            if _normalized(stem.split("-")[0]) in own:
                return True
    return False


@functools.cache
def _say_left_hidden(path: Path) -> None:
    """Say once that a folder a `.pth` file adds stays hidden in the sandbox."""
    print(
        f"lanegate: sandbox: {path} (a .pth file of lanegate's interpreter adds it) stays hidden: "
        "it is not lanegate's environment; the tree under test provides its own modules",
        file=sys.stderr,
    )


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _python_envs(repo: Path) -> list[Path]:
    """Virtual environments inside the work tree (at most two levels down): bound, not copied.
    Only real folders count: a head-made `x -> .` beside a `pyvenv.cfg` would otherwise bind the
    real tree, `.git` and all, at `x`. Nor does a folder whose `pyvenv.cfg` is committed: an
    environment is made by the job's set-up, never checked out, and a committed marker would bind
    a folder of the diff's as the head has it (a test folder, with files the base suite must not
    see)."""
    envs: dict[str, Path] = {}
    for depth in ("*", "*/*"):
        for found in repo.glob(f"{depth}/pyvenv.cfg"):
            parts = found.relative_to(repo).parts
            steps = [repo.joinpath(*parts[: i + 1]) for i in range(len(parts))]
            if found.is_file() and not any(step.is_symlink() for step in steps):
                envs["/".join(parts)] = found.parent
    committed = _tracked(repo, envs)
    return sorted({folder for name, folder in envs.items() if name not in committed})


def _tracked(repo: Path, names: Iterable[str]) -> set[str]:
    """Which of the tree-relative `names` git tracks in `repo` (none outside a git work tree)."""
    wanted = sorted(names)
    if not wanted:
        return set()
    try:
        listing = git.run_git(repo, "ls-files", "-z", "--", *wanted)
    except GitError:
        return set()
    return {os.fsdecode(name) for name in listing.split(b"\0") if name}


def _relative_path(path: str) -> str:
    """A repo-relative POSIX path as the copy compares it; one leaving the tree is refused."""
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        raise ValueError(f"removed path {path!r} is not inside the tree")
    return "/".join(parts)


# Latched when a run is being stopped (an interrupt while lanes run side by side in threads):
# from then on no lane may start another process, so every lane thread unwinds promptly.
_REFUSING = threading.Event()


def refuse_commands(refuse: bool = True) -> None:
    """Make every later `Sandbox.command` raise `SandboxError` (or, with False, allow them again)."""
    if refuse:
        _REFUSING.set()
    else:
        _REFUSING.clear()


@dataclass(slots=True, weakref_slot=True)
class Sandbox:
    """The sandbox of one lane run over the work tree `repo`; `enabled=False` is a pass-through.

    Whatever starts a process from `command` holds the sandbox for that process's life (as
    `Standby` and the mutant workers do): a sandbox nobody holds is released, its pids cgroup
    removed, and a process that has not entered that cgroup yet then fails to start."""

    repo: Path
    limits: SandboxPolicy = field(default_factory=SandboxPolicy)
    enabled: bool = True
    hidden: tuple[Path, ...] = ()
    tool: str = ""
    cap: ProcessCap = field(default_factory=lambda: ProcessCap("none"))
    # trusted files (destination in the tree -> source) mounted in every command of this sandbox,
    # under the command's own overlays: the lane's trusted inputs replacing what the head has there
    trusted_files: dict[Path, Path] = field(default_factory=dict)
    network: bool = False
    # False: no git dir at all inside (none of the tree's `.git`, nor a git dir it points to
    # outside the tree): runs that must not read other commits' code (the behaviour diff's)
    git: bool = True
    _tree_size: int = 0
    _kept: list[Path] = field(default_factory=list)
    _private: list[Path] = field(default_factory=list)  # at most one folder, made on first use
    _place: StagingPlace = StagingPlace(None, 0)  # where it was made (`staging`), set with it
    _spec_lock: threading.Lock = field(default_factory=threading.Lock)  # lanes call from threads
    _git_covers_args: list[str] | None = None  # `_git_covers`, once per sandbox
    # staged snapshots by what they hold (read-only, so commands that freeze alike share one)
    _frozen: dict[tuple[object, ...], FrozenTree] = field(default_factory=dict)
    _release: weakref.finalize[[ProcessCap, list[Path]], Sandbox] | None = None

    def __post_init__(self) -> None:
        self._arm_release()
        self.repo = self.repo.resolve()
        self.hidden = tuple(p.resolve() for p in self.hidden)
        if self.enabled:
            trusted = [p for p in _trusted_dirs() if _inside(p, self.repo)]
            self._kept = sorted({*trusted, *_python_envs(self.repo)})
            skip = {self.repo / ".git", *self._kept, *self.hidden}
            self._tree_size = tree_bytes(self.repo, skip)

    # --- what the ledger says ------------------------------------------------------------------

    @property
    def record(self) -> SandboxRecord:
        """What the ledgers record about the isolation their evidence ran under."""
        if not self.enabled:
            return SandboxRecord(mode="none", tool="", network=True, process_cap="none")
        lim = self.limits
        return SandboxRecord(
            mode="bwrap",
            tool=self.tool,
            network=self.network,
            process_cap=self.cap.kind,
            limits=SandboxLimitsRecord(
                memory_mb=lim.memory_mb,
                processes=lim.processes,
                file_mb=lim.file_mb,
                disk_mb=lim.disk_mb,
                open_files=lim.open_files,
            ),
        )

    # --- entering it ---------------------------------------------------------------------------

    def environment(
        self, source: Mapping[str, str] | None = None, *, ci_markers: bool = True
    ) -> dict[str, str]:
        """The variables of `source` (default: lanegate's own environment) that head code may
        see: the few every test needs, CI's markers unless `ci_markers` is False, and the policy's
        `sandbox.pass_env` (why: `lanegate.sandbox.environment`). The same when the sandbox is
        off, so that both modes judge the same tests under the same variables."""
        given = os.environ if source is None else source
        return passed_environment(given, self.limits.pass_env, ci_markers=ci_markers)

    def command(
        self,
        argv: Sequence[str],
        *,
        env: Mapping[str, str],
        cwd: Path | None = None,
        writable: Iterable[Path] = (),
        readable: Iterable[Path] = (),
        overlays: Mapping[Path, Path] | None = None,
        removed: Iterable[str] = (),
        frozen: Iterable[str] = (),
        privileged: bool = False,
    ) -> SandboxedCommand:
        """The command that runs `argv` inside the sandbox, with `writable` dirs (the lane's result
        files) bound read-write, `readable` paths bound read-only at their own paths, and each
        `overlays` file (destination in the tree -> trusted source) mounted read-only over the copy
        of the tree (how the base's own test files replace the head's); `removed` (repo-relative
        POSIX paths) are left out of the copy (the files a diff added, when the base is rebuilt);
        `frozen` (repo-relative folders) are shown read-only, as the copy would have them, and
        cannot be changed, renamed or replaced by the command (`frozen`). `privileged`: the command
        keeps root's file-permission override (`probe.PRIVILEGE_CAPS`; only where `probe.privilege`
        says it can)."""
        if _REFUSING.is_set():
            raise SandboxError("the run is being stopped: no new process starts")
        environ = dict(env)
        if not self.enabled:
            if privileged:
                raise SandboxError(
                    "a privileged command needs the sandbox (it grants the privilege)"
                )
            return SandboxedCommand(list(argv), environ)
        if privileged and probe.privilege():
            raise SandboxError(f"cannot run a privileged command: {probe.privilege()}")
        for name in _PYTHON_ENV_DROP:
            environ.pop(name, None)
        environ["HOME"] = SANDBOX_HOME
        environ.setdefault("TMPDIR", SANDBOX_TMP)
        workdir = (cwd or self.repo).resolve()
        removed = list(removed)
        mounted = {**(overlays or {}), **self.trusted_files}
        tree = self._freeze(list(frozen), mounted, removed)
        spec = {
            "source": SOURCE_MOUNT,
            "target": str(self.repo),
            "skip": sorted(self._skipped_names()),
            "drop": sorted({_relative_path(path) for path in removed}),
            "fill": [folder for folder, _ in tree.pinned],
            "home": SANDBOX_HOME,
            "cwd": str(workdir),
            "limits": self._rlimits(),
        }
        data = marshal.dumps(spec)  # `inner.py` reads it without importing `json`
        text = data.hex()
        mounts = self._mounts(
            [Path(p) for p in writable], [Path(p) for p in readable], mounted, tree
        )
        if len(text) > MAX_INLINE_SPEC:
            mounts += ["--ro-bind", str(self._spec_file(data)), SPEC_MOUNT]
            text = "@" + SPEC_MOUNT
        entry = [sys.executable, "-I", "-S", inner.__file__, text, "--"]
        shared = ["--share-net"] if self.network else []
        caps = probe.privilege_args() if privileged else ()
        bwrap = [
            probe.BWRAP,
            *probe.NAMESPACES,
            *caps,
            *shared,
            *mounts,
            "--chdir",
            "/",
            "--",
            *entry,
        ]
        return SandboxedCommand(self.cap.wrap([*bwrap, *python_safe(argv)]), environ)

    def _freeze(
        self, folders: list[str], overlays: Mapping[Path, Path], removed: list[str]
    ) -> FrozenTree:
        """Stage the snapshots of one command's frozen folders in the private folder, or reuse
        those of an earlier command with the same folders, overlays and removals."""
        if not folders:
            return FrozenTree({}, ())
        key = (tuple(sorted(folders)), tuple(sorted(overlays.items())), tuple(sorted(removed)))
        with self._spec_lock:
            if key in self._frozen:
                return self._frozen[key]
            into = Path(tempfile.mkdtemp(prefix="frozen-", dir=self._private_dir()))
            skip = [self.repo / ".git", *self._kept, *self.hidden]
            try:
                tree = stage_frozen(
                    self.repo,
                    folders,
                    into,
                    overlays=overlays,
                    removed=removed,
                    skip=skip,
                    limit=self._place.budget,
                )
            except OSError as error:  # a full staging folder, a path too long for it
                treewalk.rmtree(into, ignore_errors=True)
                where = str(error.filename or into)
                shown = where if len(where) <= 120 else "..." + where[-117:]
                raise SandboxError(
                    f"frozen folder {', '.join(sorted(folders))}: could not be staged at "
                    f"{shown}: {error.strerror or error}"
                ) from None
            self._frozen[key] = tree
            return tree

    def _private_dir(self) -> Path:
        """The sandbox's own folder outside itself (setup specs, the sanitized git config), made on
        first use and removed when the sandbox closes; call with `_spec_lock` held."""
        if not self._private:
            disk_budget = self._tree_size + self.limits.disk_mb * MB
            self._place = staging_place(self._tree_size, disk_budget)
            self._private.append(make_private_folder(self._place))
        return self._private[0]

    def _spec_file(self, data: bytes) -> Path:
        """A private file holding one command's setup spec (removed when the sandbox closes)."""
        with self._spec_lock:
            handle, name = tempfile.mkstemp(suffix=".spec", dir=self._private_dir())
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        return Path(name)

    def _git_covers(self) -> list[str]:
        """The bubblewrap arguments that cover the tree's git files (`git_config`): each config by
        a sanitized copy, the rest by empty files and folders, each at the file's real path, where
        the tree's `.git` (a link, maybe) shows it, and, for a file inside the tree, in the view the
        copy is made from. Found and written once per sandbox, on its first command."""
        with self._spec_lock:
            if self._git_covers_args is None:
                found = git_config.git_files(self.repo)
                folder = self._private_dir()
                empty = folder / "git-empty"
                empty.write_bytes(b"")
                covers: list[tuple[list[str], Path]] = []
                for index, (config, text) in enumerate(found.configs):
                    copy = folder / f"git-config-{index}"
                    copy.write_text(text, encoding="utf-8")
                    covers.append((["--ro-bind", str(copy)], config))
                covers += [(["--ro-bind", str(empty)], path) for path in found.empty_files]
                covers += [(_sized(COVER_MB * MB), path) for path in found.empty_folders]
                args = [
                    a for how, real in covers for seen in self._views(real) for a in (*how, seen)
                ]
                self._git_covers_args = args
            return self._git_covers_args

    def _git_dirs_masked(self) -> list[str]:
        """Empty folders over the git dirs the tree's `.git` (a file or a link: a worktree, a
        submodule) leads to outside the tree, which the read-only root would otherwise show."""
        dot = self.repo / ".git"
        found: set[Path] = set()
        if dot.is_symlink() or dot.is_file():
            for config, _ in git_config.git_files(self.repo).configs:
                folder = config.parent
                if folder != Path("/") and not _inside(self.repo, folder):
                    found.add(folder)
        return [a for folder in sorted(found) if folder.is_dir() for a in ("--tmpfs", str(folder))]

    def _views(self, real: Path) -> list[str]:
        """Where a real path shows inside the sandbox: itself, under the tree's `.git` when that
        is a link to the git dir holding it, and in the copy's source view when it is in the tree."""
        views = [str(real)]
        dot = self.repo / ".git"
        target = dot.resolve()
        if dot.is_symlink() and _inside(real, target):
            views.append(str(dot / real.relative_to(target)))
        if _inside(real, self.repo) and not _inside(real, dot):
            views.append(SOURCE_MOUNT + "/" + real.relative_to(self.repo).as_posix())
        return views

    def _hidden_outside(self, masked: Sequence[Path]) -> list[Path]:
        """Hidden folders outside the tree (an output directory given elsewhere, the folder of a
        batch's candidates): replaced by empty ones like `/tmp`. One holding the tree is masked
        too, the tree then mounted inside the mask (as under `/tmp`); never `/`, and one under
        another mask is hidden already."""
        return [
            path
            for path in self.hidden
            if path.is_dir()
            and path != Path("/")
            and not _inside(path, self.repo)
            and not any(_inside(path, m) for m in masked)
        ]

    def _skipped_names(self) -> set[str]:
        """Top-level names of the tree the copy leaves out (mounted instead, or hidden)."""
        names = {".git"}
        for path in (*self._kept, *self.hidden):
            if _inside(path, self.repo) and path != self.repo:
                names.add(path.relative_to(self.repo).parts[0])
        return names

    def _rlimits(self) -> dict[str, int]:
        lim = self.limits
        values = {
            "memory_bytes": lim.memory_mb * MB,
            "file_bytes": lim.file_mb * MB,
            "open_files": lim.open_files,
            "core_bytes": 0,
        }
        if self.cap.nproc is not None:
            values["processes"] = self.cap.nproc
        return values

    def _mounts(
        self,
        writable: list[Path],
        readable: list[Path],
        overlays: dict[Path, Path],
        frozen: FrozenTree,
    ) -> list[str]:
        home = Path(os.path.expanduser("~")).resolve()
        masked = [Path(SANDBOX_TMP), Path("/run")]
        if home.is_dir() and home != Path("/"):
            masked.append(home)  # secrets such as ~/.ssh are not for the tests to read
        runner_temp = _runner_temp(masked, self.repo)
        if runner_temp is not None:
            masked.append(runner_temp)
        masked += self._hidden_outside(masked)
        args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        # every writable place is a tmpfs with a size: filling one ends in ENOSPC, not a full disk
        # or the host's memory. bubblewrap cannot size the tmpfs of `--dev`: /dev is made read-only
        # once /dev/shm (sized) is mounted in it; its device nodes and /dev/pts stay usable
        sizes = {Path("/run"): RUN_MB * MB}
        for path in masked:
            if path.is_dir():
                size = sizes.get(path, self.limits.disk_mb * MB)
                args += [*_sized(size), str(path)]
        args += [*_sized(self.limits.disk_mb * MB), "/dev/shm", "--remount-ro", "/dev"]
        # lanegate's own interpreter and modules (wherever its .pth files reach) stay visible
        # where a mask covered them
        for path in _hidden_imports(masked, self.repo, self.hidden):
            args += ["--ro-bind", str(path), str(path)]
        if self.network:
            # the resolver's configuration may live under /run (systemd-resolved's stub file)
            resolv = Path("/etc/resolv.conf").resolve()
            if resolv.is_file() and any(_inside(resolv, m) for m in masked):
                args += ["--ro-bind", str(resolv), str(resolv)]
        args += ["--ro-bind", str(self.repo), SOURCE_MOUNT]
        # the view the copy is made from stays mounted: its `.git` (the unsanitized config, a
        # persisted token) is covered there; the copy never takes `.git` from it
        # (a link there leads to the real git dir, whose configs are covered where they are)
        git = self.repo / ".git"
        if git.is_dir() and not git.is_symlink():
            args += [*_sized(COVER_MB * MB), SOURCE_MOUNT + "/.git"]
        elif git.is_file() and not git.is_symlink():
            args += ["--ro-bind", "/dev/null", SOURCE_MOUNT + "/.git"]
        for path in self.hidden:
            if _inside(path, self.repo) and path.is_dir():
                view = SOURCE_MOUNT + "/" + path.relative_to(self.repo).as_posix()
                args += [*_sized(COVER_MB * MB), view]
        args += [*_sized(self._tree_size + self.limits.disk_mb * MB), str(self.repo)]
        # the folders above a frozen one: mount points of their own, which cannot be renamed
        for folder, held in frozen.pinned:
            args += [*_sized(held + self.limits.disk_mb * MB), str(self.repo / folder)]
        for path in [self.repo / ".git", *self._kept] if self.git else self._kept:
            if path.exists():
                args += ["--ro-bind", str(path), str(path)]
        # no credential a checkout persisted in git's files reaches head code (`git_config`)
        args += self._git_covers() if self.git else self._git_dirs_masked()
        for dest, source in sorted(overlays.items()):
            # lexical, never resolved: the head may have put a symlink at that path, but inside the
            # sandbox the path is still an empty tmpfs when bubblewrap mounts onto it
            target = Path(os.path.normpath(self.repo / dest))
            if not _inside(target, self.repo) or target == self.repo:
                raise ValueError(f"overlay {dest} is not inside the tree {self.repo}")
            if not any(_inside(target, self.repo / f) for f in frozen.snapshots):
                args += ["--ro-bind", str(source.resolve()), str(target)]  # else in the snapshot
        for folder, snapshot in sorted(frozen.snapshots.items()):
            args += ["--ro-bind", str(snapshot), str(self.repo / folder)]
        for path in writable:
            args += ["--bind", str(path.resolve()), str(path.resolve())]
        for path in readable:
            args += ["--ro-bind", str(path.resolve()), str(path.resolve())]
        return args

    def explain_exit(self, code: int | None) -> str:
        """How a sandboxed process ended, in words that name the limit it hit, if any."""
        if code is None:
            return "did not finish"
        if code == inner.SETUP_FAILED_EXIT and self.enabled:
            return f"exited {code} (the sandbox could not be set up; see its output)"
        number = -code
        if self.enabled and 128 < code < 128 + 65:
            number = code - 128  # bubblewrap reports a child killed by signal N as 128 + N
        elif code >= 0:
            return f"exited {code}"
        try:
            name = signal.Signals(number).name
        except ValueError:
            return f"exited {code}" if code >= 0 else f"was killed by signal {number}"
        why = {
            "SIGXFSZ": f"a file or its output passed sandbox.file_mb = {self.limits.file_mb}",
            "SIGSEGV": "a crash, or memory past sandbox.memory_mb",
            "SIGKILL": "killed from outside: the wall clock, or the sandbox ended",
        }.get(name)
        return f"was killed by {name}" + (f" ({why})" if why else "")

    def output_passed(self, process: str, *outputs: Path) -> str | None:
        """One line when a captured output file of `process` reached `sandbox.file_mb`, the bound
        on every file a sandboxed process writes outside (each write past it failed with EFBIG, or
        SIGXFSZ ended the writer): what the run said is cut, so the caller fails closed with this
        line; None otherwise, and when the sandbox is off (nothing bounds the output then)."""
        if not self.enabled:
            return None
        bound = self.limits.file_mb * MB
        for path in outputs:
            try:
                size = path.stat().st_size
            except OSError:
                continue
            if size >= bound:
                return (
                    f"{process}: its captured output ({path.name}) reached sandbox.file_mb = "
                    f"{self.limits.file_mb} MiB and was cut there; the run is not judged"
                )
        return None

    # --- lifetime ------------------------------------------------------------------------------

    def close(self) -> None:
        """Release what the sandbox holds outside itself (its pids cgroup, its private folder);
        a sandbox nobody closed releases it when it is garbage-collected, or at exit."""
        with self._spec_lock:
            if self._release is not None:
                self._release()
            self._git_covers_args = None  # its private folder, and the copies in it, are gone
            self._arm_release()  # used again after closing, it is released again

    def _arm_release(self) -> None:
        self._release = weakref.finalize(self, _release_outside, self.cap, self._private)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _sized(size: int) -> list[str]:
    """bubblewrap's arguments for a tmpfs of at most `size` bytes (the mount point follows): every
    tmpfs of the sandbox is made here, none without a size."""
    return ["--size", str(size), "--tmpfs"]


def _release_outside(cap: ProcessCap, private: list[Path]) -> None:
    """What `Sandbox.close` releases; holds no reference to the sandbox, so that it can run when the
    sandbox is collected."""
    cap.release()
    for folder in private:
        treewalk.rmtree(folder, ignore_errors=True)
    private.clear()


def _runner_temp(masked: Sequence[Path], repo: Path) -> Path | None:
    """The Actions runner's temporary folder when no other mask covers it: it holds the job's
    rendered step scripts (a `${{ secrets.X }}` inside `run:` is plain text there) and the files
    behind `GITHUB_ENV` and `GITHUB_OUTPUT`. Under `$HOME` on GitHub's hosted runners, often not on
    self-hosted ones. Never a folder that holds the tree, nor `/`."""
    given = os.environ.get("RUNNER_TEMP")
    if not given:
        return None
    path = Path(given).resolve()
    if not path.is_dir() or path == Path("/") or _inside(repo, path):
        return None
    return None if any(_inside(path, m) for m in masked) else path


def python_safe(argv: Sequence[str]) -> list[str]:
    """Insert `-P -s boot.py` into a command of lanegate's or the tests' interpreter (other commands
    unchanged): the installed modules come before the repository on `sys.path`, and lanegate's own
    modules are importable even from the tests' venv (see `boot`)."""
    if not argv or argv[0] not in (sys.executable, sandbox_interpreter().executable):
        return list(argv)
    out = [argv[0]]
    i = 1
    while i < len(argv) and (argv[i] in _PY_FLAGS or argv[i] in _PY_VALUED):
        out.append(argv[i])
        if argv[i] in _PY_VALUED and i + 1 < len(argv):
            i += 1
            out.append(argv[i])
        i += 1
    root = str(Path(lanegate.__file__).resolve().parent.parent)
    return [*out, "-P", "-s", boot.__file__, root, *argv[i:]]


def open_sandbox(
    repo: Path,
    limits: SandboxPolicy | None = None,
    *,
    enabled: bool = True,
    hidden: Sequence[Path] = (),
    network: bool = False,
    git: bool = True,
) -> Sandbox:
    """The sandbox for one lane run over `repo` (`network=True` shares the host's network: only the
    install of the tests' dependencies asks for it); raises `SandboxError` when none can be built,
    and when a separate tests venv would have to run without one."""
    chosen = limits or SandboxPolicy()
    tests = sandbox_interpreter()
    if not enabled:
        if tests.separate:
            raise SandboxError(
                f"--no-sandbox: the tests venv {tests.venv} holds what the head's build wrote and "
                "runs only inside the sandbox",
                hint="drop --no-sandbox, or unset LANEGATE_TESTS_PYTHON and install the tests' "
                "dependencies into lanegate's environment yourself",
            )
        return Sandbox(repo, chosen, enabled=False)
    tool = probe.check()
    bytecode.warm()  # what only the sandbox imports is compiled once, here, not in every process
    return Sandbox(
        repo,
        chosen,
        hidden=tuple(hidden),
        tool=tool,
        cap=process_cap(chosen.processes),
        network=network,
        git=git,
    )
