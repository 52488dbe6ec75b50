"""Reading a sandboxed process's record: whatever head code left there, one line, never a hang."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lanegate.errors import RunnerError
from lanegate.sandbox.outbox import read_record


def test_a_json_object_is_read(tmp_path: Path) -> None:
    (tmp_path / "r.json").write_text('{"tests": {"a": 1}}')
    assert read_record(tmp_path / "r.json") == {"tests": {"a": 1}}


def test_an_oversized_record_is_refused_by_name(tmp_path: Path) -> None:
    (tmp_path / "r.json").write_text(json.dumps({"pad": "x" * 100}))
    with pytest.raises(RunnerError, match=r"^r\.json: .* exceeds 64 bytes$"):
        read_record(tmp_path / "r.json", limit=64)


@pytest.mark.parametrize("text", ["[]", "3", '"s"', "null", "{", "", "\xff"])
def test_anything_but_one_json_object_is_refused(tmp_path: Path, text: str) -> None:
    (tmp_path / "r.json").write_bytes(text.encode("latin-1"))
    with pytest.raises(RunnerError, match=r"^r\.json: the test process's record is not"):
        read_record(tmp_path / "r.json")


def test_a_link_is_not_followed(tmp_path: Path) -> None:
    (tmp_path / "elsewhere.json").write_text("{}")
    (tmp_path / "r.json").symlink_to(tmp_path / "elsewhere.json")
    with pytest.raises(RunnerError, match=r"^r\.json: cannot read"):
        read_record(tmp_path / "r.json")


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "r.json")
    with pytest.raises(RunnerError, match=r"^r\.json: the test process's record is not a regular"):
        read_record(tmp_path / "r.json")


def test_a_missing_record_is_named(tmp_path: Path) -> None:
    with pytest.raises(RunnerError, match=r"^r\.json: cannot read"):
        read_record(tmp_path / "r.json")


@given(st.binary(max_size=200))
def test_arbitrary_bytes_give_an_object_or_one_runner_error(data: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "r.json"
        path.write_bytes(data)
        try:
            value = read_record(path)
        except RunnerError as exc:
            assert "\n" not in str(exc) and str(exc).startswith("r.json: ")
        else:
            assert isinstance(value, dict)
