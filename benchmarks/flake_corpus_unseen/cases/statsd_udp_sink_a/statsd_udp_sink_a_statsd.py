"""StatsD client (fire-and-forget UDP) and a test sink."""
import socket
import threading


class StatsClient:
    def __init__(self, host, port, prefix="shop"):
        self.addr = (host, port)
        self.prefix = prefix
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)

    def incr(self, name, value=1):
        self.sock.sendto(f"{self.prefix}.{name}:{value}|c".encode(), self.addr)

    def close(self):
        self.sock.close()


class StatsSink(threading.Thread):
    """Collects datagrams sent to (host, port)."""

    def __init__(self, host, port):
        super().__init__(daemon=True)
        self.addr = (host, port)
        self.packets = []
        self.ready = threading.Event()
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(self.addr)
        self.ready.set()

    def run(self):
        self.sock.settimeout(0.5)
        try:
            while True:
                data, _ = self.sock.recvfrom(2048)
                self.packets.append(data.decode())
        except (socket.timeout, OSError):
            pass
        finally:
            self.sock.close()
