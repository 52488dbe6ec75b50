import threading

from lazy_pool_init_a_app import CREATED, get_pool


def test_pool_created_once():
    got = []
    threads = [threading.Thread(target=lambda: got.append(get_pool())) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(CREATED) == 1
    assert got[0] is got[1]
