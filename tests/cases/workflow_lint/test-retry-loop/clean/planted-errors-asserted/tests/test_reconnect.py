"""The test plants failures in a fake, counts them in a loop, then asserts the count."""

import time

from parser import Reader


class FlakySocket:
    class Interrupted(Exception):
        pass

    def __init__(self, data, interrupt_every):
        self.data = data
        self.every = interrupt_every
        self.calls = 0

    def recv(self, size):
        self.calls += 1
        if self.calls % self.every:
            raise self.Interrupted()
        chunk, self.data = self.data[:size], self.data[size:]
        return chunk


def test_reader_survives_interruptions():
    reader = Reader(FlakySocket(b"+OK\r\n", interrupt_every=2))
    for i in range(100):
        try:
            response = reader.read_response()
            break
        except FlakySocket.Interrupted:
            pass
    assert response == b"OK"
    assert i > 0


def test_interruptions_are_counted():
    reader = Reader(FlakySocket(b"+OK\r\n", interrupt_every=3))
    interruptions = 0
    while True:
        try:
            reader.read_response()
            break
        except FlakySocket.Interrupted:
            interruptions += 1
    assert interruptions == 2


class ReconnectingReader:
    """Reads while the test kills the connection under it: each disconnect is expected, and checked."""

    def __init__(self, pubsub):
        self.pubsub = pubsub
        self.state = 0

    def loop(self):
        self.pubsub.subscribe("news")
        while True:
            time.sleep(0.01)
            try:
                if self.state == 4:
                    break
                message = self.pubsub.get_message()
                assert message
                if self.state in (1, 2):
                    self.state = 3
            except ConnectionError:
                assert self.state in (1, 2), "a disconnect the test did not make"
                self.state = 2
