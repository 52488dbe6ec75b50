import json
import queue

from app import retry  # the application's own function of that name, not a retry library


def _load(path):
    try:
        with open(path) as handle:
            return json.load(handle)
    except FileNotFoundError:
        return None


def test_each_file_loads(tmp_path):
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text("{}")
        if _load(tmp_path / name) is None:
            break
    assert retry("x") == "x"


def test_reads_until_missing(tmp_path):
    count = 0
    while True:
        if _load(tmp_path / f"{count}.json") is None:
            break
        count += 1
    assert count == 0


def test_drain_with_flag():
    q = queue.Queue()
    q.put(1)
    empty = False
    while not empty:
        try:
            q.get_nowait()
        except queue.Empty:
            empty = True
    assert q.empty()


def test_parse_each(tmp_path):
    for name in ("c.json", "d.json"):
        assert _load(tmp_path / name) is None


def test_reads_until_complete(sock):
    buffer = b""
    while b"\r\n\r\n" not in buffer:
        try:
            buffer += sock.recv(65536)
        except BlockingIOError:
            pass
    assert buffer.startswith(b"HTTP/1.1")
