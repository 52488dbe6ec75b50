from concurrent.futures import ThreadPoolExecutor

from ledger_parallel_sum_a_app import chunk_total

CHUNKS = [[1e16], [1.0], [-1e16], [1.0]]


def parallel_total(chunks):
    total = 0.0
    with ThreadPoolExecutor(max_workers=4) as ex:
        for partial in ex.map(chunk_total, chunks):
            total += partial
    return total


def test_parallel_total_matches_sequential():
    assert parallel_total(CHUNKS) == sum(sum(c) for c in CHUNKS)
