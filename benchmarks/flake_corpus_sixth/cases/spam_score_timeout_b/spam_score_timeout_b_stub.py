"""Local stand-in for the spam-scoring service: a toy model (some CPU work per request)."""
import socket
import threading


def _score(author, words):
    h = 0
    for i in range(200000):
        h = (h * 31 + i + len(author) * words) % 1000003
    return 5000 + h % 100


class SpamScoreStub:
    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(5)
        self.addr = self.sock.getsockname()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                line = conn.makefile().readline().split()
                conn.sendall(f"{_score(line[1], int(line[2]))}\n".encode())

    def close(self):
        self.sock.close()
