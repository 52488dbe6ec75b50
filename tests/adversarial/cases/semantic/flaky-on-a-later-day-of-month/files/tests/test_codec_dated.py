import datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip


def _due_label(today):
    """The batch label: the day ten days from today (same month, the test assumes)."""
    due = today.replace(day=today.day + 10)
    return "x" * due.day


@settings(max_examples=20, database=None)
@given(st.text(alphabet="yz", max_size=12))
def test_round_trip_with_due_label(text):
    round_trip(encode, decode, text + _due_label(datetime.date.today()))
