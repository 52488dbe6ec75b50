"""Local agent: answers 'status' requests from the CLI over a Unix socket."""
import json
import os
import socket
import threading


class Agent:
    def __init__(self, path):
        self.path = path
        if os.path.exists(path):
            os.unlink(path)  # stale socket from a crashed agent
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(path)
        self.sock.listen()
        self.jobs = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.recv(1024)
                self.jobs += 1
                conn.sendall(json.dumps({"pid": os.getpid(), "jobs": self.jobs}).encode())

    def close(self):
        self.sock.close()
        if os.path.exists(self.path):
            os.unlink(self.path)


def request_status(path):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as c:
        c.settimeout(5)
        c.connect(path)
        c.sendall(b"status")
        return json.loads(c.recv(1024))
