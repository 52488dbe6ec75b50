"""Prometheus-style metrics endpoint."""
import http.server
import threading

COUNTERS = {"orders_total": 12, "refunds_total": 1}


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = "".join(f"{k} {v}\n" for k, v in sorted(COUNTERS.items())).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def start(port):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
