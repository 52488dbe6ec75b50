from worker_count_affinity_a_batch import chunk


def test_work_split_into_one_chunk_per_worker():
    chunks = chunk(list(range(10)))
    assert chunks == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
