CASES = []

def add(topic, cls, trigger, judged, notes_f, notes_s, flaky, stable, extra=None, modes="plain", trigger_env=None):
    CASES.append(dict(topic=topic, cls=cls, trigger=trigger, judged=judged, notes_f=notes_f,
                      notes_s=notes_s, flaky=flaky, stable=stable, extra=extra or {}, modes=modes,
                      trigger_env=trigger_env))

add("orders_export_tmpfile", "resource", "concurrent runs on one host (parallel workers / two CI jobs) sharing a fixed /tmp name",
    "test_export_roundtrip",
    "Writes and re-reads a fixed path /tmp/orders_export.csv; another process writing the same path between write and read corrupts it. Sequential reruns never fail.",
    "Same export to pytest's per-test tmp_path.",
'''
import csv
import os

EXPORT_PATH = "/tmp/orders_export.csv"


def export_orders(rows, path=EXPORT_PATH):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "total"])
        w.writerows(rows)
    return path


def test_export_roundtrip():
    rows = [[i, f"{i * 9.99:.2f}"] for i in range(200)]
    path = export_orders(rows)
    with open(path, newline="") as fh:
        back = list(csv.reader(fh))
    os.remove(path)
    assert back[0] == ["id", "total"]
    assert back[1:] == [[str(a), b] for a, b in rows]
''',
'''
import csv


def export_orders(rows, path):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "total"])
        w.writerows(rows)
    return path


def test_export_roundtrip(tmp_path):
    rows = [[i, f"{i * 9.99:.2f}"] for i in range(200)]
    path = export_orders(rows, tmp_path / "orders_export.csv")
    with open(path, newline="") as fh:
        back = list(csv.reader(fh))
    assert back[0] == ["id", "total"]
    assert back[1:] == [[str(a), b] for a, b in rows]
''')

add("status_server_port", "resource", "rerun within ~60 s on the same host (fixed port, no SO_REUSEADDR, server side in TIME_WAIT) or port taken by another process",
    "test_status_endpoint",
    "Server binds fixed port 47613 without SO_REUSEADDR and closes connections first; a rerun within the TIME_WAIT period gets EADDRINUSE.",
    "Server binds port 0 and the client uses the port the OS assigned.",
'''
import socket
import threading

PORT = 47613


def serve_once(sock):
    conn, _ = sock.accept()
    with conn:
        conn.recv(1024)
        conn.sendall(b"HTTP/1.0 200 OK\\r\\n\\r\\nok")


def test_status_endpoint():
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", PORT))
    srv.listen(1)
    t = threading.Thread(target=serve_once, args=(srv,))
    t.start()
    with socket.create_connection(("127.0.0.1", PORT), timeout=5) as c:
        c.sendall(b"GET /status HTTP/1.0\\r\\n\\r\\n")
        t.join(5)
        data = c.recv(1024)
    srv.close()
    assert data.endswith(b"ok")
''',
'''
import socket
import threading


def serve_once(sock):
    conn, _ = sock.accept()
    with conn:
        conn.recv(1024)
        conn.sendall(b"HTTP/1.0 200 OK\\r\\n\\r\\nok")


def test_status_endpoint():
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    port = srv.getsockname()[1]
    t = threading.Thread(target=serve_once, args=(srv,))
    t.start()
    with socket.create_connection(("127.0.0.1", port), timeout=5) as c:
        c.sendall(b"GET /status HTTP/1.0\\r\\n\\r\\n")
        t.join(5)
        data = c.recv(1024)
    srv.close()
    assert data.endswith(b"ok")
''')

add("spool_fifo", "resource", "file-system ordering: os.listdir order of random temp names (ext4 hashed dirs, ~50%)", "test_jobs_processed_in_order",
    "Spool files get random mkstemp names and the processor walks os.listdir() unsorted, so FIFO order holds by chance.",
    "Spool names carry a zero-padded sequence number and the processor sorts the listing.",
'''
import os
import tempfile


def enqueue(spool, payload):
    fd, path = tempfile.mkstemp(dir=spool, prefix="job-", suffix=".json")
    with os.fdopen(fd, "w") as fh:
        fh.write(payload)
    return path


def drain(spool):
    out = []
    for name in os.listdir(spool):
        with open(os.path.join(spool, name)) as fh:
            out.append(fh.read())
    return out


def test_jobs_processed_in_order(tmp_path):
    enqueue(tmp_path, "first")
    enqueue(tmp_path, "second")
    assert drain(tmp_path) == ["first", "second"]
''',
'''
import itertools
import os

_seq = itertools.count()


def enqueue(spool, payload):
    path = os.path.join(spool, f"job-{next(_seq):08d}.json")
    with open(path, "w") as fh:
        fh.write(payload)
    return path


def drain(spool):
    out = []
    for name in sorted(os.listdir(spool)):
        with open(os.path.join(spool, name)) as fh:
            out.append(fh.read())
    return out


def test_jobs_processed_in_order(tmp_path):
    enqueue(tmp_path, "first")
    enqueue(tmp_path, "second")
    assert drain(tmp_path) == ["first", "second"]
''')

add("middleware_set", "resource", "object addresses: iteration order of a set of objects hashed by id()", "test_middleware_order",
    "Middleware objects are de-duplicated through a set; default __hash__ is address-based, so order follows memory layout.",
    "De-duplication keeps first-seen order (dict.fromkeys over the list).",
'''
class Middleware:
    def __init__(self, name, payload):
        self.name = name
        self.payload = payload


def build_chain(items):
    return [m.name for m in set(items)]


def test_middleware_order():
    junk = [bytearray(n) for n in (len(__file__), 48, 96)]
    auth = Middleware("auth", junk)
    gzip = Middleware("gzip", junk)
    log = Middleware("log", junk)
    assert build_chain([auth, gzip, log, auth]) == ["auth", "gzip", "log"]
''',
'''
class Middleware:
    def __init__(self, name, payload):
        self.name = name
        self.payload = payload


def build_chain(items):
    return [m.name for m in dict.fromkeys(items)]


def test_middleware_order():
    junk = [bytearray(n) for n in (len(__file__), 48, 96)]
    auth = Middleware("auth", junk)
    gzip = Middleware("gzip", junk)
    log = Middleware("log", junk)
    assert build_chain([auth, gzip, log, auth]) == ["auth", "gzip", "log"]
''')

add("weak_session_cache", "resource", "garbage-collection timing: whether a gen-0 collection falls inside the test depends on allocations made earlier in the process (order / run alone)",
    "test_closed_session_evicted",
    "Session keeps a bound-method callback on itself (a cycle), so del does not free it; eviction from the WeakValueDictionary only happens if the cyclic GC runs during the following allocations, which depends on what ran before.",
    "Same cache; the test calls gc.collect() before checking eviction.",
'''
import weakref

_sessions = weakref.WeakValueDictionary()


class Session:
    def __init__(self, sid):
        self.sid = sid
        self.on_close = self.close
        _sessions[sid] = self

    def close(self):
        self.closed = True


def test_sessions_registered():
    sessions = [Session(f"s{i}") for i in range(40)]
    assert all(f"s{i}" in _sessions for i in range(40))
    assert len(sessions) == 40


def test_closed_session_evicted():
    s = Session("abc")
    s.on_close()
    del s
    audit = [{"event": "closed", "n": i} for i in range(420)]
    assert len(audit) == 420
    assert "abc" not in _sessions
''',
'''
import gc
import weakref

_sessions = weakref.WeakValueDictionary()


class Session:
    def __init__(self, sid):
        self.sid = sid
        self.on_close = self.close
        _sessions[sid] = self

    def close(self):
        self.closed = True


def test_sessions_registered():
    sessions = [Session(f"s{i}") for i in range(40)]
    assert all(f"s{i}" in _sessions for i in range(40))
    assert len(sessions) == 40


def test_closed_session_evicted():
    s = Session("abc")
    s.on_close()
    del s
    audit = [{"event": "closed", "n": i} for i in range(420)]
    assert len(audit) == 420
    gc.collect()
    assert "abc" not in _sessions
''', modes="order")

add("flood_fill_depth", "resource", "recursion limit: recursive flood fill over a random map can exceed sys.getrecursionlimit()",
    "test_region_sizes_cover_open_cells",
    "Recursive DFS over a randomly generated 54x54 map; on maps with a long snake-like region the recursion exceeds the limit.",
    "Same random maps, iterative flood fill with an explicit stack.",
'''
import random

W = H = 54


def random_map(p_open=0.62):
    return [[random.random() < p_open for _ in range(W)] for _ in range(H)]


def fill(grid, r, c, seen):
    if r < 0 or c < 0 or r >= H or c >= W or not grid[r][c] or (r, c) in seen:
        return 0
    seen.add((r, c))
    return 1 + sum(fill(grid, r + dr, c + dc, seen) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)))


def region_sizes(grid):
    seen, sizes = set(), []
    for r in range(H):
        for c in range(W):
            if grid[r][c] and (r, c) not in seen:
                sizes.append(fill(grid, r, c, seen))
    return sizes


def test_region_sizes_cover_open_cells():
    grid = random_map()
    assert sum(region_sizes(grid)) == sum(map(sum, grid))
''',
'''
import random

W = H = 54


def random_map(p_open=0.62):
    return [[random.random() < p_open for _ in range(W)] for _ in range(H)]


def fill(grid, r, c, seen):
    stack, size = [(r, c)], 0
    while stack:
        r, c = stack.pop()
        if r < 0 or c < 0 or r >= H or c >= W or not grid[r][c] or (r, c) in seen:
            continue
        seen.add((r, c))
        size += 1
        stack.extend((r + dr, c + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)))
    return size


def region_sizes(grid):
    seen, sizes = set(), []
    for r in range(H):
        for c in range(W):
            if grid[r][c] and (r, c) not in seen:
                sizes.append(fill(grid, r, c, seen))
    return sizes


def test_region_sizes_cover_open_cells():
    grid = random_map()
    assert sum(region_sizes(grid)) == sum(map(sum, grid))
''')
