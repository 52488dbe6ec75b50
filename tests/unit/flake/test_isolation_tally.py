"""The run an isolation child sends its parent: counted only as one well-formed run."""

from __future__ import annotations

import json
import os

from hypothesis import given
from hypothesis import strategies as st

from lanegate.lanes.flake.dimensions import Dimension
from lanegate.lanes.flake.plugin import _Batch, _drain


def _batch(runs: int = 4) -> _Batch:
    return _Batch("t.py::test_x", Dimension.ISOLATION, runs)


def _sent(outcome: str, detail: str = "", seconds: float = 0.01) -> bytes:
    child = _batch()
    child.add(0, outcome, detail, seconds)
    return json.dumps(child.last_run()).encode()


def test_a_childs_run_carries_every_run_so_far_to_the_next_child() -> None:
    parent = _batch()
    assert parent.take(_sent("passed"), run=0)
    parent.add(1, "failed", "AssertionError: two clients", 0.02)  # what the next child adds
    assert parent.done == 2
    assert parent.counts == {"passed": 1, "failed": 1}
    assert parent.first == {"passed": 0, "failed": 1}
    assert parent.detail == "run 1: AssertionError: two clients"


def test_a_message_of_another_shape_is_refused() -> None:
    assert not _batch().take(b"", run=0)  # the child died before it sent anything
    assert not _batch().take(b'["won", "", 0.0]', run=0)  # no such outcome
    assert not _batch().take(b'[{}, {}, "", 0.0, 1]', run=0)  # the shape of a whole tally
    assert not _batch().take(b'["passed", 7, 0.0]', run=0)
    assert not _batch().take(b'["passed", "", {"s": 1}]', run=0)
    assert not _batch().take(b'["passed", "", -1.0]', run=0)
    assert not _batch().take(b'["passed", "", Infinity]', run=0)


def test_a_forged_message_can_never_undo_an_earlier_childs_run() -> None:
    parent = _batch()
    assert parent.take(_sent("failed", "AssertionError: alone"), run=0)  # the first child failed
    # the second child's test writes a whole tally of its own: two passes, the failure gone
    forged = [{"passed": 2}, {"passed": 0}, "", 0.02, 2]
    assert not parent.take(json.dumps(forged).encode(), run=1)
    # nor the failure kept but its detail or first run rewritten
    assert not parent.take(
        json.dumps([{"failed": 1, "passed": 1}, {"failed": 1, "passed": 1}, "", 0.0, 2]).encode(),
        run=1,
    )
    assert parent.counts == {"failed": 1} and parent.done == 1
    # what a child can send is its own run: one run more, the earlier failure kept
    assert parent.take(_sent("passed"), run=1)
    assert parent.counts == {"failed": 1, "passed": 1} and parent.first == {
        "failed": 0,
        "passed": 1,
    }
    assert parent.detail == "run 0: AssertionError: alone"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(st.binary(max_size=64) | JSON.map(lambda v: json.dumps(v).encode()), st.integers(0, 3))
def test_whatever_a_child_sends_the_parent_neither_raises_nor_counts_a_run_it_did_not_run(
    sent: bytes, run: int
) -> None:
    batch = _batch()
    if batch.take(sent, run):
        assert batch.done == 1 and sum(batch.counts.values()) == 1
    else:
        assert (batch.done, batch.counts, batch.first, batch.detail) == (0, {}, {}, "")


def test_the_parent_reads_a_tally_without_waiting_for_a_process_that_holds_the_pipe() -> None:
    read, write = os.pipe()
    os.write(write, b'[{}, {}, "", 0.0, 1]')
    # the write end stays open (a process the test left running): no end of file, no wait
    try:
        assert _drain(read) == b'[{}, {}, "", 0.0, 1]'
    finally:
        os.close(write)
