import socket

import socket_default_timeout_a_net as net


def test_slow_backend_answer_is_received():
    port = net.start_upper_server(delay=0.05)
    assert net.call(port, b"status") == b"STATUS"


def test_fast_fail_mode_sets_short_timeout():
    old = socket.getdefaulttimeout()
    try:
        net.configure(fast_fail=True)
        assert socket.getdefaulttimeout() == 0.005
    finally:
        socket.setdefaulttimeout(old)
