"""A minimal SMTP-like relay stub for tests: accepts one message per connection."""
import json
import socket
import threading


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class RelayStub(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.port = free_port()
        self.messages = []

    def run(self):
        self.config = json.loads(json.dumps({"banner": "220 relay.test", "domains": [f"d{i}.test" for i in range(5000)]}))
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", self.port))
        self.sock.listen(5)
        conn, _ = self.sock.accept()
        with conn:
            conn.sendall(self.config["banner"].encode() + b"\r\n")
            self.messages.append(conn.makefile("rb").read().decode())


def send_mail(port, to, body):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        assert s.recv(64).startswith(b"220")
        s.sendall(f"RCPT TO:<{to}>\r\n\r\n{body}".encode())
