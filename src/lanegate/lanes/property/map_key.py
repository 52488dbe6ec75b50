"""The key of a coverage map: what the map's evidence depends on, each part digested.

A map says which of the base's tests reach which functions. That holds for one base commit (its code,
tests, pytest configuration and lock files, all fixed by the commit), one interpreter with one set of
installed distributions, one lanegate tracer and one set of pytest flags (from the policy). Any of
these differing makes the map stale; the key names the parts so a mismatch can say which one.
"""

from __future__ import annotations

import hashlib
import json
import platform
import sys
from dataclasses import asdict, dataclass, fields
from importlib import metadata
from pathlib import Path, PurePosixPath

from lanegate import git
from lanegate._version import __version__
from lanegate.diff import TEST_CONFIG_FILES
from lanegate.sandbox import sandbox_interpreter

MAP_FORMAT_VERSION = 1
# dependency declarations and locks, at any depth: what the installed distributions were resolved from
LOCK_NAMES = frozenset(
    {
        "pyproject.toml",
        "setup.cfg",
        "setup.py",
        "poetry.lock",
        "uv.lock",
        "pdm.lock",
        "Pipfile",
        "Pipfile.lock",
        "constraints.txt",
    }
)


@dataclass(frozen=True, slots=True)
class MapKey:
    """The parts a map is valid for: the base commit and a sha256 of each other input."""

    base_commit: str
    lock: str
    environment: str
    lanegate: str
    pytest: str

    @property
    def digest(self) -> str:
        """One digest of every part (the map file's name and the cache key use it)."""
        text = json.dumps(asdict(self), sort_keys=True)
        return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()

    def differences(self, other: MapKey) -> list[str]:
        """The names of the parts in which `other` differs from this key."""
        return [f.name for f in fields(self) if getattr(self, f.name) != getattr(other, f.name)]


def _sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def tree_blobs(repo: Path, commit: str) -> dict[str, str]:
    """Every file of `commit` -> its git blob id."""
    out: dict[str, str] = {}
    listing = git.run_git(repo, "ls-tree", "-r", "-z", "--full-tree", commit)
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, _, path = entry.partition(b"\t")
        parts = meta.split()
        if len(parts) == 3 and parts[1] == b"blob":
            out[path.decode("utf-8", "surrogateescape")] = parts[2].decode()
    return out


def _named(blobs: dict[str, str], names: frozenset[str], prefixes: tuple[str, ...] = ()) -> str:
    """A digest of the blob ids of the files with one of `names` (or a name starting with a prefix)."""
    chosen = {}
    for path, blob in blobs.items():
        name = PurePosixPath(path).name
        if name in names or (prefixes and name.startswith(prefixes)):
            chosen[path] = blob
    return _sha(json.dumps(chosen, sort_keys=True))


def _editable(dist: metadata.Distribution) -> bool:
    """An editable install (PEP 660 `direct_url.json`): the project itself, whose code the base
    commit already fixes and whose version may come from the commit (setuptools-scm)."""
    try:
        data = json.loads(dist.read_text("direct_url.json") or "{}")
    except (ValueError, OSError):
        return False
    info = data.get("dir_info") if isinstance(data, dict) else None
    return isinstance(info, dict) and info.get("editable") is True


def name_and_version(dist: metadata.Distribution) -> tuple[str, str]:
    """`(dist.metadata["Name"] or "?", str(dist.version))` from the metadata file's headers alone:
    the e-mail parser behind `dist.metadata` reads the whole file (twice, for the version), which
    for a hundred distributions was most of the map key's cost. Header names match in any case; a
    folded value (continuation lines, never seen on these two) is left to that parser."""
    text = dist.read_text("METADATA") or dist.read_text("PKG-INFO") or ""
    fields: dict[str, str] = {}
    current: str | None = None
    for line in text.splitlines():
        if not line.strip():
            break  # the headers end at the first blank line
        if line[:1] in (" ", "\t"):
            if current is not None:
                return dist.metadata["Name"] or "?", str(dist.version)
            continue
        key, sep, value = line.partition(":")
        name = key.lower()
        current = name if sep and name in ("name", "version") and name not in fields else None
        if current is not None:
            fields[current] = value.lstrip(" \t")
    return fields.get("name") or "?", str(fields.get("version"))


def environment_digest() -> str:
    """The interpreter (version, implementation, machine) and every distribution installed where the
    tests run (editable installs by name only). A separate tests venv is read as data, from its
    metadata files: nothing of it is imported here."""
    tests = sandbox_interpreter()
    if tests.separate:
        found = [(d.name, d.version, d.editable) for d in tests.distributions()]
    else:
        found = [(*name_and_version(d), _editable(d)) for d in metadata.distributions()]
    dists = sorted(
        {
            f"{name.lower()}==" + ("<editable>" if editable else version)
            for name, version, editable in found
        }
    )
    parts = [sys.version, sys.implementation.name, platform.machine(), *dists]
    return _sha("\n".join(parts))


def map_key(repo: Path, commit: str, pytest_flags: list[str]) -> MapKey:
    """The key of a map of `commit` built (or used) by this interpreter with these pytest flags."""
    blobs = tree_blobs(repo, commit)
    return MapKey(
        base_commit=commit,
        lock=_named(blobs, LOCK_NAMES, ("requirements",)),
        environment=environment_digest(),
        lanegate=_sha(f"{__version__}\0format {MAP_FORMAT_VERSION}"),
        pytest=_sha(
            json.dumps(
                {"flags": pytest_flags, "config": _named(blobs, TEST_CONFIG_FILES)}, sort_keys=True
            )
        ),
    )
