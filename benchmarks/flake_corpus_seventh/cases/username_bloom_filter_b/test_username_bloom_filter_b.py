import username_bloom_filter_b_bloom as bloom

TAKEN = [f"user{n:03d}" for n in range(50)] + ["admin", "root", "support", "ana", "bob",
                                              "carla", "dieter", "emma", "farid", "gus"]


def test_taken_names_are_found():
    f = bloom.taken_filter(TAKEN)
    assert all(name in f for name in TAKEN)


def test_free_names_are_reported_available():
    f = bloom.taken_filter(TAKEN)
    for name in ["night_owl", "zoe.k", "marketing-team", "harbour_pilot"]:
        assert name not in f, name
