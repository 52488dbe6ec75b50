"""Thread races: unlocked read-modify-write (flaky under a busy scheduler) and locked look-alikes."""

import threading

ROUNDS = 20000
LOCKED_ROUNDS = 2000


def _plus_one(value):
    # A Python call between the read and the write is where the interpreter may switch threads.
    return value + 1


def _race(workers, lock=None, rounds=ROUNDS):
    state = {"n": 0}
    start = threading.Barrier(workers)

    def bump():
        start.wait()
        for _ in range(rounds):
            if lock is None:
                value = state["n"]
                state["n"] = _plus_one(value)
            else:
                with lock:
                    value = state["n"]
                    state["n"] = _plus_one(value)

    threads = [threading.Thread(target=bump) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return state["n"]


def test_two_threads_count():
    assert _race(2) == 2 * ROUNDS


def test_three_threads_count():
    assert _race(3) == 3 * ROUNDS


def test_append_then_check_without_join():
    box = []
    worker = threading.Thread(target=lambda: [box.append(i) for i in range(ROUNDS)])
    worker.start()
    seen = len(box)
    worker.join()
    assert seen in (0, ROUNDS)


def test_two_threads_locked():
    assert _race(2, threading.Lock(), LOCKED_ROUNDS) == 2 * LOCKED_ROUNDS


def test_three_threads_locked():
    assert _race(3, threading.Lock(), LOCKED_ROUNDS) == 3 * LOCKED_ROUNDS


def test_join_before_check():
    box = []
    worker = threading.Thread(target=lambda: [box.append(i) for i in range(ROUNDS)])
    worker.start()
    worker.join()
    assert len(box) == ROUNDS
