import random
import threading
import time

import seat_reservation_race_a_venue as venue


def test_no_overbooking():
    v = venue.Venue(seats=5)

    def customer(i):
        time.sleep(random.random() * 0.05)  # customers arrive at random times
        v.reserve(f"c{i}")

    threads = [threading.Thread(target=customer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(v.sold) == 5
    assert v.free == 0
