"""The second half of the hostile repository shapes fuzz (`test_repo_shapes_fuzz.py` says how the
derandomized shapes split): its own file, so that xdist's loadfile runs it on the other worker
beside the first half. Also here (so that the two halves are not neighbours in loadfile's queue,
where one worker could take both): a check that the halves share one draw and split it."""

from __future__ import annotations

import pytest

from tests.integration import test_repo_shapes_fuzz as fuzz

test_hostile_repository_shapes_end_in_a_verdict_or_one_line_half2 = fuzz.shapes_half(1)


def test_the_two_halves_judge_every_shape_of_one_draw_once(monkeypatch: pytest.MonkeyPatch) -> None:
    halves = (
        fuzz.test_hostile_repository_shapes_end_in_a_verdict_or_one_line,
        test_hostile_repository_shapes_end_in_a_verdict_or_one_line_half2,
    )
    drawn: list[list[object]] = [[], []]
    judged: list[list[object]] = [[], []]
    choose = fuzz._half
    for index, test in enumerate(halves):

        def half(entries: list[tuple[str, bytes, str]], seen: list[object] = drawn[index]) -> int:
            seen.append(entries)
            return choose(entries)

        monkeypatch.setattr(fuzz, "_half", half)
        monkeypatch.setattr(
            fuzz, "_JUDGE", lambda _factory, entries, i=index: judged[i].append(entries)
        )
        test(tmp_path_factory=None)
    assert drawn[0] == drawn[1] and len(drawn[0]) == fuzz.SHAPES
    assert judged[0] and judged[1]  # each half judges some shapes
    assert sorted(map(repr, judged[0] + judged[1])) == sorted(map(repr, drawn[0]))
