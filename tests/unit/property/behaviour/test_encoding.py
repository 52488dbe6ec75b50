"""The data-only encoding, the answers file's checks, the inputs and their shrinking: plain values,
no sandbox."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.lanes.property.behaviour import render
from lanegate.lanes.property.behaviour.answers import BadAnswers, outcomes, read_lines
from lanegate.lanes.property.behaviour.encode import MAX_NODES, decodable, decode, encode
from lanegate.lanes.property.behaviour.inputs import (
    case_of,
    literal_cases,
    literal_values,
    sequence_cases,
    shrink_candidates,
    simpler_values,
)


@pytest.mark.parametrize(
    "value",
    [None, True, 0, -7, 2**200, "", "héllo", 1.5, float("nan"), b"\x00ab", (1, "a"), [1, [2]],
     {"a": 1, 2: (3,)}, {3, 1, 2}, frozenset({"x"}), 3j],
)  # fmt: skip
def test_builtins_round_trip(value: object) -> None:
    data = encode(value)
    assert decodable(data)
    assert json.loads(json.dumps(data)) == data
    back = decode(data)
    assert type(back) is type(value)
    assert repr(back) == repr(value)


def test_one_and_one_point_zero_differ() -> None:
    assert encode(1) != encode(1.0)
    assert json.dumps(encode(True)) != json.dumps(encode(1))  # compared as JSON text


def test_dict_order_and_set_order_are_not_values() -> None:
    assert encode({"a": 1, "b": 2}) == encode({"b": 2, "a": 1})
    assert encode({"b", "a", "c"}) == encode({"c", "a", "b"})


def test_a_cycle_and_a_huge_list_stay_bounded() -> None:
    cycle: list[object] = []
    cycle.append(cycle)
    assert encode(cycle) == [{"$": "cycle"}]
    huge = encode(list(range(10**5)))
    assert len(huge) == MAX_NODES  # the nodes written, the marker counting the rest
    assert huge[-1] == {"$": "more", "n": 10**5 - MAX_NODES + 1}
    assert not decodable(huge)
    deep: list[object] = []
    for _ in range(1000):
        deep = [deep]
    assert "more" in json.dumps(encode(deep))


def test_objects_are_type_and_fields_never_values() -> None:
    class Point:
        def __init__(self) -> None:
            self.x, self.y = 1, 2

    class Opaque:
        __slots__ = ()

    data = encode(Point())
    assert data["$"] == "obj" and data["fields"] == [["x", 1], ["y", 2]]
    assert not decodable(data)
    assert encode(Opaque()) == {"$": "opaque"}  # its repr shows only where it lives
    assert render.value(data).endswith("Point(x=1, y=2)")


def test_long_strings_are_measured_not_kept() -> None:
    data = encode("x" * 10**6)
    assert data["len"] == 10**6 and len(json.dumps(data)) < 300
    assert encode("x" * 10**6 + "y") != data


def _answers(tmp_path: Path, *lines: object) -> list[dict[str, object]]:
    path = tmp_path / "answers.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return read_lines(path)


def test_answers_read_back(tmp_path: Path) -> None:
    lines = _answers(tmp_path, {"ready": True}, {"i": 1, "error": "timeout"},
                     {"i": 0, "calls": [{"ok": 1}, {"raises": "ValueError"}]})  # fmt: skip
    first, second = outcomes(lines, [[{}, {}], [{}]])
    assert first.calls == ('{"ok": 1}', '{"raises": "ValueError"}') and second.error == "timeout"


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([{"i": 0, "calls": [{"ok": 1}]}, {"i": 0, "calls": [{"ok": 2}]}], "a second time"),
        ([{"i": 5, "calls": [{"ok": 1}]}], "names no case"),
        ([{"i": 0, "calls": [{"ok": 1}, {"ok": 2}]}], "answers 2 calls of 1"),
        ([{"i": 0, "calls": [{"eval": "x"}]}], "not one of ok, raises, bad"),
        ([{"i": 0, "error": "fine, really"}], "unknown error"),
        (
            [
                {
                    "i": 0,
                    "calls": [
                        {
                            "ok": [
                                [
                                    [
                                        [
                                            [
                                                [
                                                    [
                                                        [
                                                            [
                                                                [
                                                                    [
                                                                        [
                                                                            [
                                                                                [
                                                                                    [
                                                                                        [
                                                                                            [
                                                                                                [
                                                                                                    [
                                                                                                        [
                                                                                                            [
                                                                                                                [
                                                                                                                    [
                                                                                                                        [
                                                                                                                            [
                                                                                                                                [
                                                                                                                                    [
                                                                                                                                        [
                                                                                                                                            [
                                                                                                                                                [
                                                                                                                                                    [
                                                                                                                                                        [
                                                                                                                                                            [
                                                                                                                                                                [
                                                                                                                                                                    [
                                                                                                                                                                        [
                                                                                                                                                                            [
                                                                                                                                                                                [
                                                                                                                                                                                    [
                                                                                                                                                                                        [
                                                                                                                                                                                            [
                                                                                                                                                                                                [
                                                                                                                                                                                                    [
                                                                                                                                                                                                        1
                                                                                                                                                                                                    ]
                                                                                                                                                                                                ]
                                                                                                                                                                                            ]
                                                                                                                                                                                        ]
                                                                                                                                                                                    ]
                                                                                                                                                                                ]
                                                                                                                                                                            ]
                                                                                                                                                                        ]
                                                                                                                                                                    ]
                                                                                                                                                                ]
                                                                                                                                                            ]
                                                                                                                                                        ]
                                                                                                                                                    ]
                                                                                                                                                ]
                                                                                                                                            ]
                                                                                                                                        ]
                                                                                                                                    ]
                                                                                                                                ]
                                                                                                                            ]
                                                                                                                        ]
                                                                                                                    ]
                                                                                                                ]
                                                                                                            ]
                                                                                                        ]
                                                                                                    ]
                                                                                                ]
                                                                                            ]
                                                                                        ]
                                                                                    ]
                                                                                ]
                                                                            ]
                                                                        ]
                                                                    ]
                                                                ]
                                                            ]
                                                        ]
                                                    ]
                                                ]
                                            ]
                                        ]
                                    ]
                                ]
                            ]
                        }
                    ],
                }
            ],
            "size or depth",
        ),  # noqa: E501
    ],
)
def test_forged_answers_are_refused(tmp_path: Path, lines: list[object], message: str) -> None:
    with pytest.raises(BadAnswers, match=message):
        outcomes(_answers(tmp_path, {"ready": True}, *lines), [[{}]])


def test_a_missing_answer_is_a_crash_and_garbage_is_refused(tmp_path: Path) -> None:
    (only,) = outcomes(_answers(tmp_path, {"ready": True}), [[{}]])
    assert only.error.startswith("crash: no answer")
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b"[" * 100000 + b"\n")
    with pytest.raises(BadAnswers, match="not JSON"):
        read_lines(path)


def test_literals_and_one_either_side() -> None:
    assert literal_values(["10"]) == [9, 10, 11]
    assert literal_values(['"ab"']) == ["ab", "", "bb"]
    assert literal_values(["__import__('os')", "x" * 500]) == []


def test_shrinking_halves_toward_zero_and_keeps_shared_values() -> None:
    assert simpler_values(100)[:3] == [0, 50, 25]
    assert 99 in simpler_values(100) and 100 not in simpler_values(100)
    pair = case_of([{"args": [8, 1], "kwargs": []}, {"args": [8, 2], "kwargs": []}], "sequences")
    shrunk = {c.key for c in shrink_candidates(pair)}
    both = case_of([{"args": [4, 1], "kwargs": []}, {"args": [4, 2], "kwargs": []}], "shrinking")
    assert both.key in shrunk


def test_sequences_change_one_argument() -> None:
    calls = [{"args": [1, 2], "kwargs": []}, {"args": [1, 3], "kwargs": []}]
    (case,) = sequence_cases(calls)
    assert case.decoded() == [calls[0], {"args": [1, 3], "kwargs": []}]


def test_an_answers_file_that_is_a_link_or_a_pipe_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "someone-elses.jsonl"
    other.write_text(json.dumps({"ready": True}) + "\n")
    link = tmp_path / "answers.jsonl"
    link.symlink_to(other)
    with pytest.raises(BadAnswers, match="is a link"):
        read_lines(link)
    pipe = tmp_path / "pipe.jsonl"
    os.mkfifo(pipe)
    with pytest.raises(BadAnswers, match="not a regular file"):
        read_lines(pipe)


@pytest.mark.parametrize(
    "data",
    [{"$": "bytes", "hex": "abc"}, {"$": "dict", "items": [1, [2]]}, {"$": "obj"}, {"$": 5},
     {"$": "tuple", "items": "xy"}, [[[[[[[[[[[[1]]]]]]]]]]]], {"$": "obj", "fields": [[1, 2, 3]]}],
)  # fmt: skip
def test_rendering_what_a_hostile_process_wrote_never_raises(data: object) -> None:
    assert isinstance(render.value(data), str)
    assert isinstance(render.answer(json.dumps({"ok": data})), str)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5)
    | st.sampled_from(["$", "items", "hex", "r", "type", "fields", "repr", "value", "n", "len"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["$", "items", "hex", "r", "type", "fields", "args", "repr", "value"]),
        inner | st.sampled_from(["bytes", "dict", "tuple", "obj", "set", "more", "float"]),
        max_size=4,
    ),
    max_leaves=20,
)  # fmt: skip


@settings(derandomize=True, max_examples=300, deadline=None, database=None)
@given(_JSON)
def test_rendering_any_json_never_raises(data: object) -> None:
    assert isinstance(render.value(data), str)


@settings(derandomize=True, max_examples=300, deadline=None, database=None)
@given(st.lists(_JSON, max_size=3), st.lists(st.tuples(st.text(max_size=3), _JSON), max_size=2))
def test_inputs_from_any_carried_call_never_raise(args: list[object], kwargs: list[object]) -> None:
    call = {"args": args, "kwargs": [list(kw) for kw in kwargs]}  # type: ignore[call-overload]
    if not (decodable(args) and all(decodable(v) for _, v in call["kwargs"])):
        return
    case = case_of([call, call], "recorded")
    for candidate in shrink_candidates(case):
        candidate.decoded()
    literal_cases([call], literal_values(["1", "'a'", "1.5", "b'x'"]))
    sequence_cases([call, call])
