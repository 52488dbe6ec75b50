"""The coverage map file and its key: round trip, every kind of bad file refused, the key's parts."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, fields, replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lanegate.errors import CoverageMapError
from lanegate.lanes.property.map_file import (
    CoverageMapFile,
    MapTest,
    _checked_test,
    _test,
    file_name,
    parse_map,
    read_map,
    write_map,
)
from lanegate.lanes.property.map_key import MapKey

KEY = MapKey(
    base_commit="a" * 40,
    lock="sha256:" + "1" * 64,
    environment="sha256:" + "2" * 64,
    lanegate="sha256:" + "3" * 64,
    pytest="sha256:" + "4" * 64,
)


def _map() -> CoverageMapFile:
    return CoverageMapFile(
        key=KEY,
        traced_files={"src/m.py": "b" * 40},
        functions=("src/m.py::f", "src/m.py::g", "src/m.py::<module>"),
        ambient=frozenset({2}),
        tests={
            "tests/test_m.py::test_f": MapTest("passed", False, frozenset({0})),
            "tests/test_m.py::test_g": MapTest("failed", True, frozenset({1, 0})),
        },
        collect_errors=("tests/test_broken.py",),
        build_seconds=1.5,
    )


def test_round_trip(tmp_path: Path) -> None:
    path = write_map(tmp_path, _map())
    assert path.name == file_name(KEY)
    assert read_map(path) == _map()


def _broken(tmp_path: Path, edit: object) -> str:
    data = _map().to_json()
    assert callable(edit)
    edit(data)
    path = tmp_path / "map.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CoverageMapError) as caught:
        read_map(path)
    return caught.value.diagnostic()


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda d: d.update(format="other"), "format"),
        (lambda d: d.update(format_version=2), "format_version"),
        (lambda d: d["key"].update(base_commit="b" * 40), "key_digest"),
        (lambda d: d["key"].pop("lock"), "key"),
        (lambda d: d.update(functions="src/m.py::f"), "functions"),
        (lambda d: d.update(functions=[1, 2, 3]), "functions[]"),
        (lambda d: d.update(ambient=[3]), "ambient"),
        (lambda d: d.update(ambient=[True]), "ambient"),
        (lambda d: d["tests"]["tests/test_m.py::test_f"].update(reached=[-1]), "reached"),
        (lambda d: d["tests"]["tests/test_m.py::test_f"].update(reached=[0, 3]), "reached"),
        (lambda d: d["tests"]["tests/test_m.py::test_f"].update(reached=[0, True]), "reached"),
        (lambda d: d["tests"]["tests/test_m.py::test_f"].update(reached=[0, 1.0]), "reached"),
        (lambda d: d["tests"]["tests/test_m.py::test_f"].update(reached=["0"]), "reached"),
        (lambda d: d["tests"]["tests/test_m.py::test_f"].update(reached=[0, None]), "reached"),
        (lambda d: d["tests"]["tests/test_m.py::test_f"].update(outcome="xpass"), "outcome"),
        (lambda d: d["tests"]["tests/test_m.py::test_f"].update(outcome=["passed"]), "outcome"),
        (lambda d: d["tests"]["tests/test_m.py::test_f"].update(outcome={}), "outcome"),
        (lambda d: d["tests"]["tests/test_m.py::test_f"].pop("opaque"), "opaque"),
        (lambda d: d["tests"]["tests/test_m.py::test_f"].update(reached="0"), "reached"),
        (lambda d: d["tests"]["tests/test_m.py::test_f"].update(reached={"0": 1}), "reached"),
        (lambda d: d["tests"].update({"tests/test_m.py::test_f": ["passed"]}), "test_f"),
        (lambda d: d["tests"]["tests/test_m.py::test_f"].update(opaque=0), "opaque"),
        (lambda d: d.update(tests=[]), "tests"),
        (lambda d: d.update(traced_files={"src/m.py": 7}), "traced_files"),
        (lambda d: d.update(build_seconds="1"), "build_seconds"),
    ],
)
def test_a_wrong_field_is_named(tmp_path: Path, edit: object, field: str) -> None:
    message = _broken(tmp_path, edit)
    assert message.startswith("map.json: ") and field in message
    assert "\n" not in message


@pytest.mark.parametrize(
    "raw",
    [b"", b"{", b"\xff\xfe", b"[1, 2]", b"null", b"[" * 100_000 + b"]" * 100_000],
)
def test_not_a_map_object(raw: bytes) -> None:
    with pytest.raises(CoverageMapError, match="file: "):
        parse_map(raw, Path("m.json"))


def test_oversized_is_refused_before_parsing(tmp_path: Path) -> None:
    path = write_map(tmp_path, _map())
    size = path.stat().st_size
    assert read_map(path, limit=size) == _map()
    with pytest.raises(CoverageMapError, match="over the"):
        read_map(path, limit=size - 1)


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "map.json"
    os.mkfifo(fifo)
    with pytest.raises(CoverageMapError, match="not a regular file"):
        read_map(fifo)


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CoverageMapError, match="no such file"):
        read_map(tmp_path / "none.json")


_PARTS = [f.name for f in fields(MapKey)]


@given(st.sampled_from(_PARTS), st.text(min_size=1, max_size=20))
def test_the_key_changes_with_any_part(part: str, suffix: str) -> None:
    changed = replace(KEY, **{part: getattr(KEY, part) + suffix})
    assert changed.digest != KEY.digest
    assert KEY.differences(changed) == [part]
    assert file_name(changed) != file_name(KEY)


@given(st.fixed_dictionaries({name: st.text(max_size=8) for name in _PARTS}))
def test_equal_parts_give_equal_keys(parts: dict[str, str]) -> None:
    assert MapKey(**parts).digest == MapKey(**asdict(MapKey(**parts))).digest
    assert MapKey(**parts).differences(MapKey(**parts)) == []


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-2, 4)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
_ENTRY = st.fixed_dictionaries(
    {},
    optional={
        "outcome": st.sampled_from(["passed", "failed", "error", "skipped", "xpass"]) | _JSON,
        "opaque": st.booleans() | _JSON,
        "reached": st.lists(st.integers(-1, 4) | _JSON, max_size=5) | _JSON,
        "other": _JSON,
    },
)


@given(value=_ENTRY | _JSON, size=st.integers(0, 4))
def test_the_quick_check_of_a_test_entry_agrees_with_the_named_one(
    value: object, size: int
) -> None:
    """Whatever a map's test entry holds, the quick path takes it exactly when the field-by-field
    check does, with the same result; otherwise the error names the field."""
    path = Path("map.json")
    try:
        expected = _checked_test("tests/t.py::t", value, size, path)
    except CoverageMapError as exc:
        with pytest.raises(CoverageMapError) as caught:
            _test("tests/t.py::t", value, size, path)
        assert caught.value.diagnostic() == exc.diagnostic()
    else:
        assert _test("tests/t.py::t", value, size, path) == expected
