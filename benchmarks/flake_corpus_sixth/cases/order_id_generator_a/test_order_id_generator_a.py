import threading

import order_id_generator_a_ids as ids


def test_ids_from_many_threads():
    got, errors = [], []

    def handler():
        try:
            for _ in range(600):
                got.append(ids.next_order_id())
        except ValueError as e:
            errors.append(e)

    threads = [threading.Thread(target=handler) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(set(got)) == 2400
