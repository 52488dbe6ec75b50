"""The work tree's git configuration as head code sees it: without what a checkout or a user left
of a credential there.

The sandbox mounts the repository's `.git` read-only (setuptools-scm, `git describe` and tests that
run git need it), and `actions/checkout` persists the job's token in `.git/config` unless told not
to (`http.https://github.com/.extraheader = AUTHORIZATION: basic ...`), in each submodule's config
too; a clone from `https://user:token@host/...` keeps the token in `remote.origin.url`; tools keep
theirs beside (`hub.oauthtoken`, `sendemail.smtppass`, `lfs.url`). Head code could print any of them
into a test id that the ledgers and the pull request comment carry. So every git config file of the
tree (`config` and `config.worktree` of its git dir, of a worktree's common dir, of every submodule
under `modules/`, wherever a link leads) is covered, inside the sandbox, by a copy that git itself
read (`git config --list --null --no-includes`) keeping only what git and the tools tests run need
to work (`ALLOWED`): the `core` settings git reads a repository with, `extensions`, remotes' and
submodules' URLs without their user information, fetch refspecs, branches' upstreams. A config git
cannot read is covered by an empty one: git then runs on its defaults, and nothing of the file
reaches head code.
"""

from __future__ import annotations

import os
import re
import shlex
import stat
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from lanegate import git
from lanegate.errors import GitError, SandboxError
from lanegate.treewalk import walk

# (section, key) kept, by name: nothing else of a config reaches head code.
_CORE = (
    "repositoryformatversion bare worktree filemode symlinks ignorecase precomposeunicode "
    "logallrefupdates autocrlf eol safecrlf checkstat trustctime quotepath commentchar abbrev "
    "sparsecheckout sparsecheckoutcone splitindex untrackedcache multipackindex commitgraph "
    "bigfilethreshold compression loosecompression packedgitwindowsize packedgitlimit "
    "deltabasecachelimit preloadindex protectntfs protecthfs"
)
ALLOWED = frozenset(
    {
        *(("core", key) for key in _CORE.split()),
        *(
            ("extensions", key)
            for key in ("objectformat", "worktreeconfig", "refstorage", "preciousobjects", "noop")
        ),
        ("extensions", "partialclone"),
        ("init", "defaultbranch"),
        ("remote", "url"),
        ("remote", "pushurl"),
        ("remote", "fetch"),
        ("branch", "remote"),
        ("branch", "merge"),
        ("submodule", "url"),
        ("submodule", "active"),
    }
)
URL_KEYS = frozenset({("remote", "url"), ("remote", "pushurl"), ("submodule", "url")})
NAMED = frozenset({"remote", "branch", "submodule"})  # the kept sections that have subsections
_NAME = re.compile(r"[A-Za-z0-9._/-]{1,100}")
_SCHEMES = frozenset({"http", "https", "ssh", "git", "file", "git+ssh", "ssh+git"})
_SCP = re.compile(r"(?:[A-Za-z0-9._-]+@)?[A-Za-z0-9.-]+:(?!//)[A-Za-z0-9._~/-]*")
# a kept value that is not a URL: booleans, numbers, names, refs, refspecs (no spaces, no `@:`
# userinfo, nothing a token hides in more than in a ref's own name)
_PLAIN = re.compile(r"[+A-Za-z0-9._/*:-]{0,200}")
# what head code sees of a git dir: what git needs to read a repository; anything else (the
# reflogs, the legacy `remotes/` and `branches/`, a token a helper reads, a store file under any
# name) is covered by an empty file or folder
GIT_DIR_NAMES = frozenset(
    {
        *(
            "HEAD ORIG_HEAD FETCH_HEAD MERGE_HEAD MERGE_MSG MERGE_MODE AUTO_MERGE CHERRY_PICK_HEAD"
            " REVERT_HEAD BISECT_LOG COMMIT_EDITMSG config config.worktree packed-refs index shallow"
            " commondir gitdir description objects refs info hooks modules worktrees lfs"
            " rebase-merge rebase-apply sequencer sparse-checkout"
        ).split(),
    }
)
# credential stores a workflow may leave in the work tree itself (covered by empty files)
STORE_NAMES = frozenset({".git-credentials", ".netrc", "_netrc"})
MAX_CONFIGS = 4096  # git dirs and config files covered per tree (submodules included)
SYSTEM_CONFIG = Path("/etc/gitconfig")


def read_entries(config: Path) -> list[tuple[str, str]] | None:
    """`(key, value)` of every entry of `config`, in file order, as git reads it (None: git could
    not read it). Run from `/`, outside any repository, whose own configuration git would read."""
    try:
        out = git.run_git(
            Path("/"), "config", "--file", str(config), "--list", "--null", "--no-includes"
        )
    except GitError:
        return None
    entries = []
    for item in out.decode("utf-8", "surrogateescape").split("\0"):
        if item:
            key, _, value = item.partition("\n")
            entries.append((key, value))
    return entries


def clean_url(url: str) -> str | None:
    """A repository URL with nothing but its scheme, host, port and path (no user information,
    query or fragment); `host:path` for the scp form, without its user; a local path as it is;
    None for any other form (`ext::`, a helper's syntax, what does not parse cleanly)."""
    if url.startswith(("/", "./", "../")) and "\\" not in url:
        return url
    if _SCP.fullmatch(url):
        return url.rpartition("@")[2] if "@" in url.partition(":")[0] else url
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in _SCHEMES or not parts.hostname or "\\" in url:
        return None
    host = parts.hostname if port is None else f"{parts.hostname}:{port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def sanitized(entries: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The entries head code may read (see the module docstring)."""
    kept = []
    for key, value in entries:
        section, _, rest = key.partition(".")
        subsection, dot, name = rest.rpartition(".")
        where = (section.lower(), name.lower())
        if where not in ALLOWED:
            continue
        if (where[0] in NAMED) != bool(dot) or (dot and not _NAME.fullmatch(subsection)):
            continue  # `[core "..."]` is no setting; a remote's or branch's name is a plain name
        if where in URL_KEYS:
            cleaned = clean_url(value)
            if cleaned is None:
                continue
            value = cleaned
        elif not _PLAIN.fullmatch(value):
            continue  # every other kept value is a word, a number, a ref or a refspec
        kept.append((key, value))
    return kept


def _subsection(text: str) -> str:
    """A subsection name as git reads it back: only `\\` and `"` are escaped there."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _value(text: str) -> str:
    """A value as git reads it back inside double quotes."""
    return _subsection(text).replace("\n", "\\n").replace("\t", "\\t")


def render(entries: list[tuple[str, str]]) -> str:
    """A config file git reads back as exactly `entries` (sections grouped in first-seen order)."""
    sections: dict[tuple[str, str | None], list[tuple[str, str]]] = {}
    for key, value in entries:
        section, _, rest = key.partition(".")
        subsection, dot, name = rest.rpartition(".")
        head = (section, subsection if dot else None)  # `[s ""]` is `s..name`: an empty one
        sections.setdefault(head, []).append((name, value))
    lines = []
    for (title, inner), items in sections.items():
        lines.append(f"[{title}]" if inner is None else f'[{title} "{_subsection(inner)}"]')
        lines += [f'\t{name} = "{_value(value)}"' for name, value in items]
    return "".join(f"{line}\n" for line in lines)


def _too_many(where: Path) -> SandboxError:
    return SandboxError(
        f"{where}: more than {MAX_CONFIGS} git dirs or config files (submodules, worktrees, nested "
        "checkouts): lanegate covers each for head code and will not leave any as it is"
    )


def _small_text(path: Path) -> str | None:
    """A regular file's text, at most 4 KiB (a FIFO or a device is never opened: it could block)."""
    try:
        info = os.stat(path)
        # a real pointer file is never empty; a `/proc` file says size 0 and may block
        if not stat.S_ISREG(info.st_mode) or not 0 < info.st_size <= 4096:
            return None
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except (OSError, ValueError):
        return None


def _at(base: Path, named: str) -> list[Path]:
    """`base / named` with its links resolved, or none (a name git could not use either)."""
    try:
        return [(base / named).resolve()] if named and "\0" not in named else []
    except (OSError, ValueError, RuntimeError):
        return []


def _pointed(dot: Path) -> list[Path]:
    """The git dir a `.git` file names (`gitdir: PATH`), or none."""
    named = _small_text(dot)
    if named is None or not named.startswith("gitdir:"):
        return []
    return _at(dot.parent, named.removeprefix("gitdir:").strip())


def _common(gitdir: Path) -> list[Path]:
    """A git dir's common dir (a worktree's, named in its `commondir` file), or none."""
    named = _small_text(gitdir / "commondir")
    return [] if named is None else _at(gitdir, named)


def _exists(path: Path, *, dir_: bool = False) -> bool:
    """`path.is_dir()` / `path.exists()`, False for a name the system refuses (too long, ...)."""
    try:
        return path.is_dir() if dir_ else path.exists()
    except (OSError, ValueError):
        return False


def _is_git_dir(dirs: list[str], files: list[str]) -> bool:
    """Whether a folder is a git dir of its own (a bare or mirror clone keeps no `.git`)."""
    return "HEAD" in files and "config" in files and "objects" in dirs and "refs" in dirs


def _submodules(gitdir: Path) -> list[Path]:
    """Every submodule's git dir under `gitdir/modules`, at any depth: a folder holding `HEAD` is
    one (its own `modules/` is searched again); any other folder is part of a submodule's name,
    whatever that name is (`hooks`, `refs`: the head chooses names in `.gitmodules`)."""
    found: list[Path] = []
    stack = [] if (gitdir / "modules").is_symlink() else [gitdir / "modules"]
    visited = 0
    while stack:
        folder = stack.pop()
        visited += 1
        if visited > MAX_CONFIGS:
            raise _too_many(gitdir)
        try:
            children = sorted(p for p in folder.iterdir() if p.is_dir() and not p.is_symlink())
        except OSError:
            continue
        for child in children:
            if (child / "HEAD").is_file():
                found.append(child)
                stack.append(child / "modules")
            else:
                stack.append(child)
    return found


def _walk(repo: Path) -> tuple[list[Path], set[Path]]:
    """One walk of the tree: where a git run in it, or head code reading files, finds a git dir
    (each `.git` folder or file at any depth, a bare clone kept in the tree, what a link in the
    tree leads to, and the checkouts the tree itself sits inside), and the credential stores a
    workflow left in it (`STORE_NAMES`)."""
    found: list[Path] = []
    stores: set[Path] = set()
    for folder, dirs, files in walk(repo):
        here = Path(folder)
        if _is_git_dir(dirs, files) and here != repo:
            found.append(here)  # walked on: a folder made to look like one hides nothing
        if ".git" in dirs:
            found.append(here / ".git")
            dirs.remove(".git")
        if ".git" in files:
            found += _pointed(here / ".git")
        for name in dirs:
            if (here / name).is_symlink():  # not walked into; it stays readable in the view
                for target in _at(here, name):
                    found += [target, target / ".git"]
        stores |= {
            (here / name).resolve()
            for name in STORE_NAMES.intersection(files)
            if not (here / name).is_symlink()
        }
        if len(found) > MAX_CONFIGS:
            raise _too_many(repo)
    found += [parent / ".git" for parent in repo.parents]
    return found, stores


def git_dirs(entries: list[Path], repo: Path) -> list[Path]:
    """Every git dir whose files head code could read through the tree (`entries`, from `_walk`),
    the dirs the `.git` files name, their common dirs, their submodules' and their other
    worktrees'; `SandboxError` past `MAX_CONFIGS`."""
    queue: list[Path] = []
    for entry in entries:
        if entry.is_file():
            queue += _pointed(entry)
        elif entry.is_dir():
            queue += _at(entry, ".")
    seen: list[Path] = []
    while queue:
        gitdir = queue.pop()
        if gitdir in seen or not _exists(gitdir, dir_=True):
            continue
        if not any(_exists(gitdir / name) for name in ("HEAD", "config", "config.worktree")):
            continue  # a folder a link led to, not a git dir
        seen.append(gitdir)
        if len(seen) > MAX_CONFIGS:
            raise _too_many(repo)
        queue += _common(gitdir) + _submodules(gitdir)
        worktrees = gitdir / "worktrees"
        if worktrees.is_dir():
            queue += [p for w in sorted(worktrees.iterdir()) if w.is_dir() for p in _at(w, ".")]
    return seen


@dataclass(frozen=True, slots=True)
class GitFiles:
    """What the sandbox covers of git's files, every path real (links resolved): each config file
    by its sanitized text; each folder in `empty_folders` (the reflogs: `git pull
    https://user:token@...` writes its command line there; the legacy `remotes/` and `branches/`;
    whatever else a git dir holds) and each file in `empty_files` (what configs include, a store
    helper's file, credential stores in the tree) by an empty one."""

    configs: tuple[tuple[Path, str], ...]
    empty_folders: tuple[Path, ...]
    empty_files: tuple[Path, ...]


def git_files(repo: Path) -> GitFiles:
    """What `GitFiles` says for every git dir `git_dirs` finds, and for the system's own git
    configuration, which every git run reads; `SandboxError` past `MAX_CONFIGS`."""
    entries, stores = _walk(repo)
    dirs = git_dirs(entries, repo)
    paths = {
        path.resolve()
        for gitdir in dirs
        for path in (gitdir / "config", gitdir / "config.worktree")
        if path.is_file()
    }
    if SYSTEM_CONFIG.is_file():
        paths.add(SYSTEM_CONFIG.resolve())
    if len(paths) > MAX_CONFIGS:
        raise _too_many(repo)
    configs = []
    empty_files = set(stores)
    for path in sorted(paths):
        read = read_entries(path)
        configs.append((path, sanitized_text(read)))
        # what it includes (`actions/checkout` v6 keeps the token in such a file), a store
        # helper's file
        empty_files.update(_included(path, read or []))
    empty_folders: set[Path] = set()
    for gitdir in dirs:
        for entry in _listing(gitdir):
            if entry.name in GIT_DIR_NAMES:
                continue
            if _exists(entry, dir_=True):
                empty_folders.add(entry.resolve())
            else:
                empty_files.add(entry.resolve())
    return GitFiles(
        tuple(configs), tuple(sorted(empty_folders)), tuple(sorted(empty_files - paths))
    )


def _listing(folder: Path) -> list[Path]:
    try:
        return sorted(folder.iterdir())
    except OSError:
        return []


def _included(config: Path, entries: list[tuple[str, str]], depth: int = 0) -> list[Path]:
    """The files a config names that hold what it does not show: the files it includes (followed
    as git follows them, relative to its folder, ten deep at most, as git's own limit) and the file
    of a `store` credential helper (`credential.helper = store --file PATH`)."""
    out: list[Path] = []
    for key, value in entries:
        section, _, rest = key.partition(".")
        section, name = section.lower(), rest.rpartition(".")[2].lower()
        if section in ("include", "includeif") and name == "path":
            for target in _at(config.parent, os.path.expanduser(value)):
                if _exists(target) and not _exists(target, dir_=True):
                    out.append(target)
                    if depth < 10:
                        out += _included(target, read_entries(target) or [], depth + 1)
        elif section == "credential" and name == "helper":
            for given in _store_files(value):
                # relative: to where git runs the helper (the work tree's top), or to the config
                for base in (config.parent.parent, config.parent):
                    named = _at(base, os.path.expanduser(given))
                    out += [t for t in named if _exists(t) and not _exists(t, dir_=True)]
    return out


def _store_files(helper: str) -> list[str]:
    """The `--file` a `store` helper's command line names, as the shell would split it."""
    try:
        words = shlex.split(helper)
    except ValueError:
        return []
    out = []
    for i, word in enumerate(words):
        if word == "--file" and i + 1 < len(words):
            out.append(words[i + 1])
        elif word.startswith("--file="):
            out.append(word.removeprefix("--file="))
    return out


def sanitized_text(entries: list[tuple[str, str]] | None) -> str:
    """The config file head code may read in place of one whose entries are `entries` (empty when
    git could not read it: git then runs on its defaults)."""
    return render(sanitized(entries)) if entries else ""
