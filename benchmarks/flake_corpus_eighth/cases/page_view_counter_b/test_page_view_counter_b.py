import threading

import page_view_counter_b_views as views

HITS = 30000


def test_concurrent_hits_are_counted():
    counter = views.ViewCounter()
    start = threading.Barrier(4)

    def worker():
        start.wait()
        for _ in range(HITS):
            counter.hit("/pricing")

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert counter.views["/pricing"] == 4 * HITS
