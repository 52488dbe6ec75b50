import threading
import time


def deliver(outbox, channel, delay, work):
    acc = 0
    for i in range(work):
        acc += i * i
    time.sleep(delay)
    outbox.append(channel)
