from kvline import dump_pairs, load_pairs


def test_empty():
    assert dump_pairs({}) == ""
    assert load_pairs("") == {}


def test_round_trip_example():
    pairs = {"user": "ada", "action": "login"}
    assert load_pairs(dump_pairs(pairs)) == pairs
