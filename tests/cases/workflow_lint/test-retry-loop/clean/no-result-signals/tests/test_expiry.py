"""A search that may find nothing, run until the store it fills has drained: `NoMatchFound` is the
search's documented "nothing found", not a failure of it, so swallowing it forgives nothing."""

import pytest

from store import MemoryStore, NoMatchFound, Record, search


def test_stale_entries_expire_after_boring_runs():
    store = MemoryStore()
    interesting = True

    def run_search():
        try:
            search(store, lambda record: interesting and record.weight > 3)
        except NoMatchFound:
            pass

    run_search()
    assert store.pending()
    interesting = False
    left = len(store.pending())
    for _ in range(left):
        run_search()
        if not store.pending():
            break
    else:
        raise AssertionError("entries never expired")


def test_waits_for_the_row_to_appear(db):
    for _ in range(20):
        try:
            row = Record.objects.get(name="job")
            break
        except Record.DoesNotExist:
            db.refresh()
    else:
        pytest.fail("the row never appeared")
    assert row.state == "done"


def test_first_even_of_each_stream(streams):
    def first_even(stream):
        try:
            return next(n for n in stream if n % 2 == 0)
        except StopIteration:
            return None

    found = [first_even(iter(s)) for s in streams]
    assert found.count(None) == 1
