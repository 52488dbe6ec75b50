from hypothesis import given, settings, strategies as st

from runs import longest_run


def test_examples():
    assert longest_run("") == 0
    assert longest_run("abc") == 1
    assert longest_run("aabbbbc") == 4


@settings(deadline=None)
@given(st.text(max_size=30))
def test_longest_run_bounds(text):
    assert 0 <= longest_run(text) <= len(text)
