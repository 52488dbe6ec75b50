import socket
import threading


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def build_routes(n):
    routes = {}
    for i in range(n):
        routes[f"/api/v1/items/{i}"] = f"handler_{i % 7}"
    routes["/health"] = "ok"
    return routes


class HealthServer(threading.Thread):
    def __init__(self, port, warmup_routes):
        super().__init__(daemon=True)
        self.port = port
        self.warmup_routes = warmup_routes
        self.ready = threading.Event()

    def run(self):
        routes = build_routes(self.warmup_routes)
        srv = socket.socket()
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind(("127.0.0.1", self.port))
        srv.listen(5)
        self.ready.set()
        conn, _ = srv.accept()
        with conn, srv:
            path = conn.recv(1024).decode().split()[1]
            conn.sendall(f"HTTP/1.0 200 OK\r\n\r\n{routes.get(path, 'missing')}".encode())


def get(port, path):
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(f"GET {path} HTTP/1.0\r\n\r\n".encode())
        return s.recv(1024).decode().split("\r\n\r\n", 1)[1]
