"""The work tree's `.git/config` as head code sees it: without what a checkout or a user left of a
credential there.

The sandbox mounts the repository's `.git` read-only (setuptools-scm, `git describe` and tests that
run git need it), and `actions/checkout` persists the job's token in `.git/config` unless told not
to (`http.https://github.com/.extraheader = AUTHORIZATION: basic ...`); a clone from
`https://user:token@host/...` keeps the token in `remote.origin.url`. Head code could print either
into a test id that the ledgers and the pull request comment carry. So every sandbox mounts, over
`.git/config`, a copy that git itself read (`git config --list --null --no-includes`) with the
`http.*`, `credential.*`, `url.*`, `include.*` and `includeIf.*` keys left out and the user
information taken out of every remote URL. A config git cannot read becomes an empty one: git then
runs on its defaults, and nothing of the file reaches head code.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

# sections whose keys can carry a credential, or pull in a file that does
DROPPED_SECTIONS = frozenset({"http", "credential", "url", "include", "includeif"})
URL_KEYS = frozenset({"url", "pushurl"})
GIT_TIMEOUT_SECONDS = 30


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
        if section.lower() in DROPPED_SECTIONS:
            continue
        name = rest.rpartition(".")[2]
        if section.lower() == "remote" and name.lower() in URL_KEYS:
            value = without_userinfo(value)
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


def write_sanitized(config: Path, target: Path) -> None:
    """Write to `target` what head code may read of `config` (an empty file when git cannot read
    it)."""
    entries = read_entries(config)
    target.write_text(render(sanitized(entries)) if entries else "", encoding="utf-8")
