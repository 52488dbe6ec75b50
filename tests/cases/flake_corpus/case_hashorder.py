"""Hash-seed order: iteration order of sets of strings (flaky) and order-safe look-alikes."""


def test_set_first_word():
    assert next(iter({"apple", "banana"})) == "apple"


def test_set_join_order():
    assert "".join({"x", "y"}) == "xy"


def test_frozenset_list_order():
    assert list(frozenset({"left", "right"}))[0] == "left"


def test_set_pop_word():
    words = {"north", "south"}
    assert words.pop() == "north"


def test_sorted_set_is_stable():
    assert sorted({"apple", "banana"}) == ["apple", "banana"]


def test_dict_keeps_insertion_order():
    assert list({"banana": 1, "apple": 2}) == ["banana", "apple"]


def test_set_equality_ignores_order():
    assert {"x", "y"} == {"y", "x"}


def test_set_of_small_ints_order():
    assert list({3, 1, 2}) == [1, 2, 3]
