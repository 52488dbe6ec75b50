import queue
import threading
import time


class Consumer(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.q = queue.Queue()
        self.stopped = False
        self.handled = []

    def run(self):
        while True:
            event = self.q.get()
            if event is None:
                return
            self.handle(event)

    def handle(self, event):
        time.sleep(0.0008)  # write the event to the audit store
        self.handled.append(event)

    def stop(self):
        self.q.put(None)
        self.join(5)


def produce(consumer, n):
    for i in range(n):
        time.sleep(0.001)  # wait for the next event from the socket
        consumer.q.put({"seq": i})
