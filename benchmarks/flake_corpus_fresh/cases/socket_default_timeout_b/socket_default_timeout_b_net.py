import socket
import threading
import time


def start_upper_server(delay):
    """One-shot local TCP server that answers with the upper-cased request after `delay` s."""
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)

    def serve():
        try:
            conn, _ = srv.accept()
            with conn:
                data = conn.recv(1024)
                time.sleep(delay)
                conn.sendall(data.upper())
        except OSError:
            pass
        finally:
            srv.close()

    threading.Thread(target=serve, daemon=True).start()
    return srv.getsockname()[1]


def configure(fast_fail):
    if fast_fail:
        socket.setdefaulttimeout(0.005)


def call(port, message):
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(message)
        return sock.recv(1024)
