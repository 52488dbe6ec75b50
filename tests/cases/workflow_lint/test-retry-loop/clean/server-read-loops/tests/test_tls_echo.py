"""An echo server the test runs in a thread: its read loop waits on the socket, it retries nothing."""

import socket
import threading

from OpenSSL import SSL

from tlsclient import connect


def serve_one(listener, context):
    conn, _ = listener.accept()
    server = SSL.Connection(context, conn)
    server.set_accept_state()
    while True:
        try:
            data = server.recv(4096)
        except SSL.WantReadError:
            continue
        except SSL.ZeroReturnError:
            break
        server.sendall(data)
    server.shutdown()


def echo_plain(listener, stop):
    listener.settimeout(0.1)
    while not stop.is_set():
        try:
            conn, _ = listener.accept()
        except socket.timeout:
            continue
        with conn:
            conn.sendall(conn.recv(1024))
            break


def pump(sock, sink):
    sock.setblocking(False)
    while True:
        try:
            chunk = sock.recv(65536)
            if not chunk:
                return
            sink.write(chunk)
        except BlockingIOError:
            continue


def test_echo_roundtrip(tls_context):
    listener = socket.create_server(("127.0.0.1", 0))
    thread = threading.Thread(target=serve_one, args=(listener, tls_context), daemon=True)
    thread.start()
    client = connect(listener.getsockname())
    client.send(b"abc")
    assert client.recv(3) == b"abc"


def upper_server(listener):
    conn, _ = listener.accept()
    conn.settimeout(0.2)
    while True:
        try:
            data = conn.recv(1024)
            if not data:
                break
            conn.sendall(data.upper())
        except socket.timeout:
            continue
        except ConnectionResetError:
            break
    conn.close()


def test_upper(tmp_path):
    listener = socket.create_server(("127.0.0.1", 0))
    threading.Thread(target=upper_server, args=(listener,), daemon=True).start()
    with socket.create_connection(listener.getsockname()) as sock:
        sock.sendall(b"abc")
        assert sock.recv(3) == b"ABC"


class LineHandler(threading.Thread):
    """Serves one client line by line until it says `bye`; a broken connection stops it."""

    def __init__(self, conn):
        super().__init__(daemon=True)
        self.conn = conn
        self.running = True

    def run(self):
        while self.running:
            try:
                line = self.conn.recv(1024).strip()
                if not line:
                    self.running = False
                    self.conn.close()
                elif line == b"bye":
                    self.conn.close()
                    return
                else:
                    self.conn.sendall(line[::-1] + b"\n")
            except OSError:
                self.running = False


def read_all(stream):
    chunks = []
    while True:
        try:
            chunk = stream.read_chunk(4096)
        except EOFError:
            chunk = None
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def relay(chan, out):
    chan.settimeout(0.0)
    while True:
        try:
            text = bytes.decode(chan.recv(1024))
            if not text:
                break
            out.write(text)
        except socket.timeout:
            pass
