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
import subprocess
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

# (section, key) kept; "*" is any key of the section. Nothing else of a config reaches head code.
_CORE = (
    "repositoryformatversion bare worktree filemode symlinks ignorecase precomposeunicode "
    "logallrefupdates autocrlf eol safecrlf checkstat trustctime quotepath commentchar abbrev "
    "sparsecheckout sparsecheckoutcone splitindex untrackedcache multipackindex commitgraph "
    "hookspath excludesfile attributesfile bigfilethreshold compression loosecompression "
    "packedgitwindowsize packedgitlimit deltabasecachelimit preloadindex protectntfs protecthfs"
)
ALLOWED = frozenset(
    {
        *(("core", key) for key in _CORE.split()),
        ("extensions", "*"),
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
GIT_TIMEOUT_SECONDS = 30
MAX_CONFIGS = 256  # config files covered per tree (submodules of submodules included)


def read_entries(config: Path) -> list[tuple[str, str]] | None:
    """`(key, value)` of every entry of `config`, in file order, as git reads it (None: git could
    not read it)."""
    try:
        done = subprocess.run(
            ["git", "config", "--file", str(config), "--list", "--null", "--no-includes"],
            capture_output=True,
            timeout=GIT_TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    entries = []
    for item in done.stdout.decode("utf-8", "surrogateescape").split("\0"):
        if item:
            key, _, value = item.partition("\n")
            entries.append((key, value))
    return entries


def without_userinfo(url: str) -> str:
    """`url` without a `user:password@` part (URLs with a scheme only; `git@host:path` has no
    password to hide)."""
    parts = urlsplit(url)
    if not parts.scheme or "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def sanitized(entries: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The entries head code may read (see the module docstring)."""
    kept = []
    for key, value in entries:
        section, _, rest = key.partition(".")
        where = (section.lower(), rest.rpartition(".")[2].lower())
        if where not in ALLOWED and (where[0], "*") not in ALLOWED:
            continue
        if where in URL_KEYS:
            value = without_userinfo(value)
        elif where == ("branch", "remote") and (":" in value or "/" in value):
            continue  # a URL, not a remote's name
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


def _git_dirs(repo: Path) -> list[Path]:
    """The git dirs whose configuration the tree's git reads: `.git` (or the dir a `.git` file
    names, and its common dir), and every submodule's under their `modules/`."""
    dot = repo / ".git"
    roots: list[Path] = []
    if dot.is_dir():
        roots.append(dot)
    elif dot.is_file():
        try:
            named = dot.read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            named = ""
        if named.startswith("gitdir:"):
            gitdir = (repo / named.removeprefix("gitdir:").strip()).resolve()
            roots.append(gitdir)
            common = gitdir / "commondir"
            if common.is_file():
                try:
                    roots.append((gitdir / common.read_text(encoding="utf-8").strip()).resolve())
                except OSError:
                    pass
    found: list[Path] = []
    for root in roots:
        found.append(root)
        modules = root / "modules"
        if modules.is_dir():
            for folder, dirs, _ in os.walk(modules):
                dirs[:] = [d for d in dirs if d not in ("objects", "refs", "logs", "hooks")]
                if (Path(folder) / "HEAD").is_file():
                    found.append(Path(folder))
                if len(found) > MAX_CONFIGS:
                    break
    return found


def config_files(repo: Path) -> list[Path]:
    """The real paths of the tree's git config files (see `_git_dirs`), links resolved."""
    files = []
    for gitdir in _git_dirs(repo):
        for name in ("config", "config.worktree"):
            path = gitdir / name
            if path.is_file():
                files.append(path.resolve())
    return sorted(set(files))[:MAX_CONFIGS]


def write_sanitized(config: Path, target: Path) -> None:
    """Write to `target` what head code may read of `config` (an empty file when git cannot read
    it)."""
    entries = read_entries(config)
    target.write_text(render(sanitized(entries)) if entries else "", encoding="utf-8")
