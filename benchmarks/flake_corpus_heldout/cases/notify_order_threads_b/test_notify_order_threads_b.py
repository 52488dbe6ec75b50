import threading

from notify_order_threads_b_app import deliver


def test_notifications_in_priority_order():
    outbox = []
    high = threading.Thread(target=deliver, args=(outbox, "high", 0.005, 120000))
    low = threading.Thread(target=deliver, args=(outbox, "low", 0.02, 0))
    high.start()
    low.start()
    high.join()
    low.join()
    assert outbox == ["high", "low"]
