"""The coverage map file of a base commit: its format, writing it, and reading it back with limits.

The file is JSON: the key (see `map_key`), the traced files with their blob ids, a table of functions
(`path::qualname`), the functions called outside any test (import, collection), and per base test its
outcome, whether it is opaque (it started a process or replaced the tracer),
and the indices of the functions it reached. Reading never
trusts the bytes: a file that is too large, not JSON, of the wrong shape, or with an index out of range
raises `CoverageMapError` naming the field, and the lane then runs its full baseline.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from lanegate.errors import CoverageMapError
from lanegate.lanes.property.map_key import MAP_FORMAT_VERSION, MapKey

FORMAT = "lanegate-coverage-map"
MAX_MAP_BYTES = 128 * 1024 * 1024
MAX_ENTRIES = 2_000_000
MAX_TEXT = 4096
OUTCOMES = frozenset({"passed", "failed", "error", "skipped"})
_INT = {int}


@dataclass(frozen=True, slots=True)
class MapTest:
    """One base test: its outcome at base, whether it is opaque (not all it ran was traced), and the
    functions it reached."""

    outcome: str
    opaque: bool
    reached: frozenset[int]


@dataclass(frozen=True, slots=True)
class CoverageMapFile:
    """Which of the base's tests reach which functions (functions are `path::qualname`)."""

    key: MapKey
    traced_files: Mapping[str, str]
    functions: tuple[str, ...]
    ambient: frozenset[int]
    tests: Mapping[str, MapTest]
    collect_errors: tuple[str, ...]
    build_seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The file's content."""
        return {
            "format": FORMAT,
            "format_version": MAP_FORMAT_VERSION,
            "key": asdict(self.key),
            "key_digest": self.key.digest,
            "build_seconds": round(self.build_seconds, 3),
            "traced_files": dict(sorted(self.traced_files.items())),
            "functions": list(self.functions),
            "ambient": sorted(self.ambient),
            "collect_errors": list(self.collect_errors),
            "tests": {
                node: {"outcome": t.outcome, "opaque": t.opaque, "reached": sorted(t.reached)}
                for node, t in sorted(self.tests.items())
            },
        }


def file_name(key: MapKey) -> str:
    """The map's file name in a cache directory: named by its key digest."""
    return f"coverage-map-{key.digest.removeprefix('sha256:')[:32]}.json"


def write_map(directory: Path, data: CoverageMapFile) -> Path:
    """Write the map into `directory` under its key's name (atomically); return the path."""
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / file_name(data.key)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(data.to_json(), separators=(",", ":")), encoding="utf-8")
    os.replace(tmp, target)
    return target


def _fail(path: Path, field: str, problem: str) -> CoverageMapError:
    return CoverageMapError(f"{path.name}: {field}: {problem}")


def _text(value: Any, path: Path, field: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise _fail(path, field, f"expected a string of at most {MAX_TEXT} characters")
    return value


def _list(value: Any, path: Path, field: str) -> list[Any]:
    if not isinstance(value, list) or len(value) > MAX_ENTRIES:
        raise _fail(path, field, f"expected a list of at most {MAX_ENTRIES} entries")
    return value


def _indices(value: Any, size: int, path: Path, field: str) -> frozenset[int]:
    items = _list(value, path, field)
    # whole-list checks (a map holds an index list per base test): exact ints only, then the range
    if items and (set(map(type, items)) != {int} or min(items) < 0 or max(items) >= size):
        raise _fail(path, field, f"expected indices into functions (0..{size - 1})")
    return frozenset(items)


def _key(value: Any, path: Path) -> MapKey:
    if not isinstance(value, dict) or set(value) != set(MapKey.__dataclass_fields__):
        raise _fail(path, "key", f"expected the fields {sorted(MapKey.__dataclass_fields__)}")
    return MapKey(**{name: _text(value[name], path, f"key.{name}") for name in value})


def _test(node: str, value: Any, size: int, path: Path) -> MapTest:
    """One test's entry. A well-formed one is taken in a few whole-value checks (a map of a big
    suite holds thousands); anything else goes through `_checked_test`, which names the field."""
    if type(value) is dict:
        outcome, opaque, reached = value.get("outcome"), value.get("opaque"), value.get("reached")
        if (
            type(outcome) is str
            and outcome in OUTCOMES
            and type(opaque) is bool
            and type(reached) is list
            and len(reached) <= MAX_ENTRIES
            and (
                not reached
                or (set(map(type, reached)) == _INT and min(reached) >= 0 and max(reached) < size)
            )
        ):
            return MapTest(outcome, opaque, frozenset(reached))
    return _checked_test(node, value, size, path)


def _checked_test(node: str, value: Any, size: int, path: Path) -> MapTest:
    where = f"tests[{node[:80]!r}]"
    if not isinstance(value, dict):
        raise _fail(path, where, "expected an object")
    outcome = value.get("outcome")
    if not isinstance(outcome, str) or outcome not in OUTCOMES:
        raise _fail(path, f"{where}.outcome", f"expected one of {sorted(OUTCOMES)}")
    opaque = value.get("opaque")
    if not isinstance(opaque, bool):
        raise _fail(path, f"{where}.opaque", "expected true or false")
    return MapTest(
        str(outcome), opaque, _indices(value.get("reached"), size, path, f"{where}.reached")
    )


def parse_map(raw: bytes, path: Path, limit: int = MAX_MAP_BYTES) -> CoverageMapFile:
    """Bytes -> map, checking every field; `CoverageMapError` on anything else."""
    if len(raw) > limit:
        raise _fail(path, "file", f"over the {limit}-byte limit")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _fail(path, "file", f"not JSON ({type(exc).__name__})") from None
    if not isinstance(data, dict):
        raise _fail(path, "file", "expected a JSON object")
    if data.get("format") != FORMAT:
        raise _fail(path, "format", f"expected {FORMAT!r}")
    if data.get("format_version") != MAP_FORMAT_VERSION:
        raise _fail(path, "format_version", f"expected {MAP_FORMAT_VERSION}")
    key = _key(data.get("key"), path)
    if data.get("key_digest") != key.digest:
        raise _fail(path, "key_digest", "does not match the key's parts")
    traced = data.get("traced_files")
    if not isinstance(traced, dict) or len(traced) > MAX_ENTRIES:
        raise _fail(path, "traced_files", "expected an object of paths to blob ids")
    for name, blob in traced.items():
        _text(blob, path, f"traced_files[{name[:80]!r}]")
    functions = tuple(
        _text(f, path, "functions[]") for f in _list(data.get("functions"), path, "functions")
    )
    tests = data.get("tests")
    if not isinstance(tests, dict) or len(tests) > MAX_ENTRIES:
        raise _fail(path, "tests", f"expected an object of at most {MAX_ENTRIES} tests")
    seconds = data.get("build_seconds", 0.0)
    if type(seconds) not in (int, float):
        raise _fail(path, "build_seconds", "expected a number")
    return CoverageMapFile(
        key=key,
        traced_files=dict(traced),
        functions=functions,
        ambient=_indices(data.get("ambient"), len(functions), path, "ambient"),
        tests={
            _text(node, path, "tests"): _test(node, value, len(functions), path)
            for node, value in tests.items()
        },
        collect_errors=tuple(
            _text(e, path, "collect_errors[]")
            for e in _list(data.get("collect_errors"), path, "collect_errors")
        ),
        build_seconds=float(seconds),
    )


def read_map(path: Path, limit: int = MAX_MAP_BYTES) -> CoverageMapFile:
    """Read and check one map file (at most `limit` bytes are read)."""
    try:
        # non-blocking, then checked: a FIFO or device in the map's place is refused, never read
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise CoverageMapError(f"{path.name}: no such file") from None
    except OSError as exc:
        raise CoverageMapError(f"{path.name}: cannot read: {exc.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _fail(path, "file", "not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            raw = handle.read(limit + 1)
    finally:
        os.close(fd)
    return parse_map(raw, path, limit)
