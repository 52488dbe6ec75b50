from concurrent.futures import ThreadPoolExecutor, as_completed

from ledger_parallel_sum_b_app import chunk_total

CHUNKS = [[1e16], [1.0], [-1e16], [1.0]]


def parallel_total(chunks):
    total = 0.0
    with ThreadPoolExecutor(max_workers=4) as ex:
        for fut in as_completed([ex.submit(chunk_total, c) for c in chunks]):
            total += fut.result()
    return total


def test_parallel_total_matches_sequential():
    assert parallel_total(CHUNKS) == sum(sum(c) for c in CHUNKS)
