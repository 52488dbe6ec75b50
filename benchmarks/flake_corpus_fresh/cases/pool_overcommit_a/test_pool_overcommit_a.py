import threading

from pool_overcommit_a_pool import ConnectionPool

ROUNDS = 15000


def test_pool_never_exceeds_its_size():
    pool = ConnectionPool(size=2)

    def worker():
        for _ in range(ROUNDS):
            if pool.acquire():
                pool.release()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert pool.peak <= 2
