"""Client of the spam-scoring service used by comment moderation (line protocol: 'SCORE <author> <words>' -> '<score>')."""
import socket

TIMEOUT = 0.2


def score(addr, author, words):
    with socket.create_connection(addr, timeout=TIMEOUT) as s:
        s.sendall(f"SCORE {author} {words}\n".encode())
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(64)
            if not chunk:
                break
            data += chunk
    return int(data)
