"""What a base test reads its data with: the working directory and the standard library's file
functions, as they were before any project code ran in the process.

The base's test folders are frozen in the base suite's sandbox (`sandbox/frozen.py`), so the bytes at
a data file's path cannot change. Code under test shares the process, though, and red-team pass 8
showed two ways around the path: moving the working directory (`os.chdir` at import, onto a forged
copy of `tests/golden/`, which a test reading `Path("tests/golden/cases.txt")` then reads), and
replacing a reading function (`type.__setattr__(pathlib.Path, "read_text", ...)`, which sends the
test's reads to a forged copy). The guard takes the working directory and those functions when the
plugin is imported (before any conftest or project module) and names the first that differs: the
plugin asks after collection (code run at import) and after each test's teardown (code a test ran,
not undone by its fixtures), and every test it finds one at is an error. A change made and undone
within one test is not seen: the introspection scan names the rebinding forms in the diff's code.

Below the functions sits the codec registry: a text read decodes through the incremental decoder
`codecs.lookup` gives for the file's encoding. Red-team pass 9 unregistered the standard search
function and registered one whose UTF-8 decoder rewrote an expected output as the test read it, the
bytes on disk untouched. So the guard also keeps what the registry answers for the encodings reads
use (UTF-8, ASCII, Latin-1, the locale's and the file system's) and the decoder classes' own
attributes, and names the first that differs.
"""

from __future__ import annotations

import builtins
import codecs
import io
import json
import locale
import os
import pathlib
import posixpath
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

__all__ = ["ReadGuard"]

# module -> the names a test's read goes through
_MODULE_NAMES: dict[ModuleType, tuple[str, ...]] = {
    builtins: ("open",),
    io: ("open", "open_code", "FileIO", "BufferedReader", "TextIOWrapper"),
    os: ("open", "read", "fdopen", "getcwd", "listdir", "scandir", "stat", "fspath", "walk"),
    posixpath: ("join", "exists", "isfile", "isdir", "abspath", "realpath", "dirname"),
    pathlib: ("Path", "PurePath", "PosixPath", "PurePosixPath"),
    json: ("load", "loads"),
}
# class -> the attributes of its own namespace a read goes through
_CLASS_NAMES: dict[type, tuple[str, ...]] = {
    pathlib.Path: (
        "open",
        "read_text",
        "read_bytes",
        "exists",
        "is_file",
        "is_dir",
        "iterdir",
        "glob",
        "rglob",
        "resolve",
        "absolute",
        "cwd",
        "stat",
        "__new__",
    ),
    pathlib.PurePath: (
        "__truediv__",
        "__rtruediv__",
        "joinpath",
        "__fspath__",
        "__str__",
        "parent",
        "name",
        "with_name",
        "with_suffix",
    ),
}
_MISSING = object()
_CODEC_PARTS = (
    "encode",
    "decode",
    "incrementalencoder",
    "incrementaldecoder",
    "streamreader",
    "streamwriter",
)


def _encodings() -> tuple[str, ...]:
    """The encodings a test's text reads decode with, by their registry names."""
    names = ["utf-8", "ascii", "latin-1", locale.getpreferredencoding(False)]
    names.append(sys.getfilesystemencoding())
    found: dict[str, None] = {}
    for name in names:
        try:
            found[codecs.lookup(name).name] = None
        except LookupError:
            continue
    return tuple(found)


@dataclass(frozen=True, slots=True)
class _CodecState:
    """What the registry answered for one encoding: the CodecInfo and its parts, and every entry of
    its decoder and reader classes' own namespaces (a method replaced in place changes every read)
    with each namespace's size (an entry added in a subclass hides its base's)."""

    info: Any
    parts: tuple[Any, ...]
    entries: tuple[tuple[Mapping[str, Any], str, Any], ...]
    sizes: tuple[tuple[Mapping[str, Any], int], ...]

    @classmethod
    def take(cls, name: str) -> _CodecState:
        info = codecs.lookup(name)
        spaces = [
            vars(kind)
            for part in (info.incrementaldecoder, info.streamreader)
            if isinstance(part, type)
            for kind in part.__mro__
            if kind is not object
        ]
        return cls(
            info,
            tuple(getattr(info, part, None) for part in _CODEC_PARTS),
            tuple((space, key, value) for space in spaces for key, value in space.items()),
            tuple((space, len(space)) for space in spaces),
        )

    def holds(self, name: str) -> bool:
        """Whether the registry still answers exactly this for `name`."""
        try:
            info = codecs.lookup(name)
        except LookupError:
            return False
        return (
            info is self.info
            and all(
                getattr(info, p, None) is v for p, v in zip(_CODEC_PARTS, self.parts, strict=True)
            )
            and all(space.get(key, _MISSING) is value for space, key, value in self.entries)
            and all(len(space) == size for space, size in self.sizes)
        )


class ReadGuard:
    """The working directory and the reading functions as first seen (see the module docstring)."""

    def __init__(self) -> None:
        self._getcwd = os.getcwd
        self.cwd = os.getcwd()
        self.functions = {
            (module, name): vars(module).get(name, _MISSING)
            for module, names in _MODULE_NAMES.items()
            for name in names
        }
        self.attributes = {
            (cls, name): vars(cls).get(name, _MISSING)
            for cls, names in _CLASS_NAMES.items()
            for name in names
        }
        self.codecs = {name: _CodecState.take(name) for name in _encodings()}

    def problem(self) -> str | None:
        """What differs from the first look (None: nothing)."""
        try:
            now = self._getcwd()
        except OSError as exc:
            now = f"<gone: {exc.strerror}>"
        if now != self.cwd:
            return (
                f"the working directory moved from {self.cwd} to {now} while the base's tests ran"
            )
        for (module, name), value in self.functions.items():
            if vars(module).get(name, _MISSING) is not value:
                return f"{module.__name__}.{name} was replaced in this test process"
        for (cls, name), value in self.attributes.items():
            if vars(cls).get(name, _MISSING) is not value:
                return (
                    f"{cls.__module__}.{cls.__qualname__}.{name} was replaced in this test process"
                )
        for name, state in self.codecs.items():
            if not state.holds(name):
                return f"the {name} codec was replaced in this test process"
        return None
