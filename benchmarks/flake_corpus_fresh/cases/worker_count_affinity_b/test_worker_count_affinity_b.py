from worker_count_affinity_b_batch import chunk


def test_work_split_into_one_chunk_per_worker():
    chunks = chunk(list(range(10)), workers=2)
    assert chunks == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
