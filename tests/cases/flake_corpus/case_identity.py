"""Object identity: orders that follow memory addresses (flaky) and identity-safe look-alikes."""


class Token:
    def __init__(self, name):
        self.name = name


def test_ids_increase():
    first, second = Token("a"), Token("b")
    assert id(first) < id(second)


def test_set_of_objects_in_creation_order():
    tokens = [Token("first"), Token("second")]
    assert next(iter(set(tokens))).name == "first"


def test_sorted_by_id_is_creation_order():
    tokens = [Token(str(i)) for i in range(3)]
    assert sorted(tokens, key=id) == tokens


def test_sorted_by_name():
    tokens = [Token(str(i)) for i in range(3)]
    assert [t.name for t in sorted(tokens, key=lambda t: t.name)] == ["0", "1", "2"]


def test_distinct_objects():
    first, second = Token("a"), Token("b")
    assert first is not second and id(first) != id(second)


def test_set_of_objects_size():
    tokens = [Token(str(i)) for i in range(4)]
    assert len(set(tokens)) == 4
