import threading

from hit_counter_race_a_app import HitCounter


def test_parallel_hits_are_counted():
    counter = HitCounter()

    def client():
        for i in range(40000):
            counter.hit("/index")

    threads = [threading.Thread(target=client) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert counter.count == 160000
