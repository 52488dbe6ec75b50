from load_shedder_b_shed import LoadShedder


def test_light_overload_drops_few_requests():
    shedder = LoadShedder(drop_ratio=0.1)
    dropped = sum(not shedder.admit() for _ in range(20))
    assert dropped <= 3
