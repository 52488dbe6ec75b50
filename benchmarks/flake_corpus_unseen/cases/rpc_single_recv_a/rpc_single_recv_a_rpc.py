"""JSON RPC to the inventory service: reply is 'OK <id>\n' followed by the JSON body, then close."""
import json
import socket
import threading


def serve_once(listener, handler):
    conn, _ = listener.accept()
    with conn:
        request = json.loads(conn.recv(65536).decode())
        conn.sendall(f"OK {request['id']}\n".encode())  # status line first, then the streamed body
        conn.sendall(json.dumps(handler(request)).encode())


def start_server(handler):
    listener = socket.create_server(("127.0.0.1", 0))
    t = threading.Thread(target=serve_once, args=(listener, handler), daemon=True)
    t.start()
    return listener, t


def call(port, method, **params):
    with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
        s.sendall(json.dumps({"id": 7, "method": method, "params": params}).encode())
        reply = s.recv(1 << 20)  # replies are far below 1 MiB
        status, _, body = reply.partition(b"\n")
        assert status == b"OK 7", status
        return json.loads(body.decode())
