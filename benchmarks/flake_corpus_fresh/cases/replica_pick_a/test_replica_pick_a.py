from replica_pick_a_replicas import LATENCY_MS, pick_replica


def test_read_goes_to_a_fast_replica():
    replica = pick_replica(down=["db-us-2"])
    assert LATENCY_MS[replica] < 100, replica
