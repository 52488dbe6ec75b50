import socket

from quote_client_timeout_a_quote_server import start_quote_server

TIMEOUT = 5


def fetch_quote(port):
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as c:
        c.sendall(b"ACME")
        return c.recv(64)


def test_quote_roundtrip():
    port = start_quote_server()
    assert fetch_quote(port).startswith(b'{"quotes"')
