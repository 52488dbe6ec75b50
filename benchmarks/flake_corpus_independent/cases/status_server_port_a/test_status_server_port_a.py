import socket
import threading

PORT = 47613


def serve_once(sock):
    conn, _ = sock.accept()
    with conn:
        conn.recv(1024)
        conn.sendall(b"HTTP/1.0 200 OK\r\n\r\nok")


def test_status_endpoint():
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", PORT))
    srv.listen(1)
    t = threading.Thread(target=serve_once, args=(srv,))
    t.start()
    with socket.create_connection(("127.0.0.1", PORT), timeout=5) as c:
        c.sendall(b"GET /status HTTP/1.0\r\n\r\n")
        t.join(5)
        data = c.recv(1024)
    srv.close()
    assert data.endswith(b"ok")
