import socket
import time

from statsd_udp_sink_b_statsd import StatsClient, StatsSink


def free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_counter_reaches_statsd():
    port = free_udp_port()
    sink = StatsSink("127.0.0.1", port)
    sink.start()
    client = StatsClient("127.0.0.1", port)
    client.incr("checkout.completed")
    client.close()
    deadline = time.monotonic() + 0.3
    while not sink.packets and time.monotonic() < deadline:
        time.sleep(0.005)
    assert sink.packets == ["shop.checkout.completed:1|c"]
