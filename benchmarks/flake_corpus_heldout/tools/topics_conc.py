TOPICS = []
def T(**kw): TOPICS.append(kw)

T(topic="hit_counter_race", cls="concurrency", node="test_parallel_hits_are_counted",
  trigger="unlocked read-modify-write across 4 threads; a GIL switch inside the window loses an update (about 20% plain, more under load)",
  robust="thread scheduling (lock around the update)",
  common={},
  flaky={"appmod.py": '''
class HitCounter:
    def __init__(self):
        self.count = 0
        self.last_path = None

    def _normalize(self, path):
        return path

    def hit(self, path):
        current = self.count
        self.last_path = self._normalize(path)
        self.count = current + 1
''', "TEST": '''
import threading

from appmod import HitCounter


def test_parallel_hits_are_counted():
    counter = HitCounter()

    def client():
        for i in range(40000):
            counter.hit("/index")

    threads = [threading.Thread(target=client) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert counter.count == 160000
'''},
  stable={"appmod.py": '''
import threading


class HitCounter:
    def __init__(self):
        self.count = 0
        self.last_path = None
        self._lock = threading.Lock()

    def _normalize(self, path):
        return path

    def hit(self, path):
        with self._lock:
            current = self.count
            self.last_path = self._normalize(path)
            self.count = current + 1
''', "TEST": '''
import threading

from appmod import HitCounter


def test_parallel_hits_are_counted():
    counter = HitCounter()

    def client():
        for i in range(40000):
            counter.hit("/index")

    threads = [threading.Thread(target=client) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert counter.count == 160000
'''})

T(topic="lazy_pool_init", cls="concurrency", node="test_pool_created_once",
  trigger="check-then-act lazy singleton; two threads both build the pool when the ~5 ms build outlasts the GIL switch interval (about 30%)",
  robust="thread scheduling (double-checked lock)",
  common={},
  flaky={"appmod.py": '''
CREATED = []
_pool = None


class Pool:
    def __init__(self, size):
        self.slots = [{"id": i, "busy": False} for i in range(size)]
        CREATED.append(self)


def get_pool():
    global _pool
    if _pool is None:
        _pool = Pool(25000)
    return _pool
''', "TEST": '''
import threading

from appmod import CREATED, get_pool


def test_pool_created_once():
    got = []
    threads = [threading.Thread(target=lambda: got.append(get_pool())) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(CREATED) == 1
    assert got[0] is got[1]
'''},
  stable={"appmod.py": '''
import threading

CREATED = []
_pool = None
_lock = threading.Lock()


class Pool:
    def __init__(self, size):
        self.slots = [{"id": i, "busy": False} for i in range(size)]
        CREATED.append(self)


def get_pool():
    global _pool
    if _pool is None:
        with _lock:
            if _pool is None:
                _pool = Pool(25000)
    return _pool
''', "TEST": '''
import threading

from appmod import CREATED, get_pool


def test_pool_created_once():
    got = []
    threads = [threading.Thread(target=lambda: got.append(get_pool())) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(CREATED) == 1
    assert got[0] is got[1]
'''})

T(topic="batch_results_order", cls="concurrency", node="test_results_in_submission_order",
  trigger="results collected by add_done_callback arrive in completion order, which varies with thread scheduling (about 20%)",
  robust="thread scheduling (executor.map keeps input order)",
  common={"appmod.py": '''
def score(x):
    acc = 0
    for i in range(120000):
        acc ^= i
    return x * x
'''},
  flaky={"TEST": '''
from concurrent.futures import ThreadPoolExecutor

from appmod import score


def run_batch(items):
    results = []
    with ThreadPoolExecutor(max_workers=4) as ex:
        for item in items:
            ex.submit(score, item).add_done_callback(lambda f: results.append(f.result()))
    return results


def test_results_in_submission_order():
    assert run_batch([1, 2, 3, 4]) == [1, 4, 9, 16]
'''},
  stable={"TEST": '''
from concurrent.futures import ThreadPoolExecutor

from appmod import score


def run_batch(items):
    with ThreadPoolExecutor(max_workers=4) as ex:
        return list(ex.map(score, items))


def test_results_in_submission_order():
    assert run_batch([1, 2, 3, 4]) == [1, 4, 9, 16]
'''})

T(topic="ledger_parallel_sum", cls="float", node="test_parallel_total_matches_sequential",
  trigger="partial float sums combined in as_completed order; different completion orders round differently (scheduling-dependent)",
  robust="thread scheduling (partials combined in chunk order)",
  common={"appmod.py": '''
def chunk_total(values):
    acc = 0
    for i in range(120000):
        acc ^= i
    return sum(values)
'''},
  flaky={"TEST": '''
from concurrent.futures import ThreadPoolExecutor, as_completed

from appmod import chunk_total

CHUNKS = [[1e16], [1.0], [-1e16], [1.0]]


def parallel_total(chunks):
    total = 0.0
    with ThreadPoolExecutor(max_workers=4) as ex:
        for fut in as_completed([ex.submit(chunk_total, c) for c in chunks]):
            total += fut.result()
    return total


def test_parallel_total_matches_sequential():
    assert parallel_total(CHUNKS) == sum(sum(c) for c in CHUNKS)
'''},
  stable={"TEST": '''
from concurrent.futures import ThreadPoolExecutor

from appmod import chunk_total

CHUNKS = [[1e16], [1.0], [-1e16], [1.0]]


def parallel_total(chunks):
    total = 0.0
    with ThreadPoolExecutor(max_workers=4) as ex:
        for partial in ex.map(chunk_total, chunks):
            total += partial
    return total


def test_parallel_total_matches_sequential():
    assert parallel_total(CHUNKS) == sum(sum(c) for c in CHUNKS)
'''})

T(topic="health_server_ready", cls="network", node="test_health_endpoint",
  trigger="client connects after a 0.5 ms sleep instead of waiting for the server thread to bind (localhost; a few %)",
  robust="scheduling (waits on a ready Event)",
  common={},
  flaky={"appmod.py": '''
import socket
import threading


class HealthServer:
    def __init__(self):
        self.port = None

    def _serve(self):
        routes = {f"/route/{i}": i for i in range(2000)}
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        self.port = sock.getsockname()[1]
        conn, _ = sock.accept()
        conn.recv(64)
        conn.sendall(b"200 OK %d" % len(routes))
        conn.close()
        sock.close()

    def start(self):
        threading.Thread(target=self._serve, daemon=True).start()
''', "TEST": '''
import socket
import time

from appmod import HealthServer


def test_health_endpoint():
    server = HealthServer()
    server.start()
    time.sleep(0.0005)
    with socket.create_connection(("127.0.0.1", server.port), timeout=2) as c:
        c.sendall(b"GET /health")
        assert c.recv(64).startswith(b"200 OK")
'''},
  stable={"appmod.py": '''
import socket
import threading


class HealthServer:
    def __init__(self):
        self.port = None
        self.ready = threading.Event()

    def _serve(self):
        routes = {f"/route/{i}": i for i in range(2000)}
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        self.port = sock.getsockname()[1]
        self.ready.set()
        conn, _ = sock.accept()
        conn.recv(64)
        conn.sendall(b"200 OK %d" % len(routes))
        conn.close()
        sock.close()

    def start(self):
        threading.Thread(target=self._serve, daemon=True).start()
        self.ready.wait(10)
''', "TEST": '''
import socket
import time

from appmod import HealthServer


def test_health_endpoint():
    server = HealthServer()
    server.start()
    time.sleep(0.0005)
    with socket.create_connection(("127.0.0.1", server.port), timeout=2) as c:
        c.sendall(b"GET /health")
        assert c.recv(64).startswith(b"200 OK")
'''})

T(topic="quote_client_timeout", cls="network", node="test_quote_roundtrip",
  trigger="client socket timeout of 60 ms against a localhost server that sleeps 25 ms and renders ~20 ms; times out when starved (CPU load)",
  robust="CPU load (timeout 5 s)",
  common={"quote_server.py": '''
import json
import socket
import threading
import time


def start_quote_server():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()

    def serve():
        conn, _ = sock.accept()
        conn.recv(64)
        time.sleep(0.025)
        body = json.dumps({"quotes": [{"sym": "ACME", "px": i / 3} for i in range(9000)]})
        conn.sendall(body[:64].encode())
        conn.close()
        sock.close()

    threading.Thread(target=serve, daemon=True).start()
    return sock.getsockname()[1]
'''},
  flaky={"TEST": '''
import socket

from quote_server import start_quote_server

TIMEOUT = 0.06


def fetch_quote(port):
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as c:
        c.sendall(b"ACME")
        return c.recv(64)


def test_quote_roundtrip():
    port = start_quote_server()
    assert fetch_quote(port).startswith(b'{"quotes"')
'''},
  stable={"TEST": '''
import socket

from quote_server import start_quote_server

TIMEOUT = 5


def fetch_quote(port):
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as c:
        c.sendall(b"ACME")
        return c.recv(64)


def test_quote_roundtrip():
    port = start_quote_server()
    assert fetch_quote(port).startswith(b'{"quotes"')
'''})

T(topic="admin_port", cls="resource", node="test_admin_port_is_free",
  trigger="resource leak: test_start_admin_server keeps a listening socket on fixed port 48731 in a module global (reversed order, repetition, or two concurrent runs)",
  robust="test order, repetition, concurrent runs (ephemeral ports, socket closed by fixture)",
  common={"appmod.py": '''
import socket


def open_admin_socket(port):
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen()
    return sock
'''},
  flaky={"TEST": '''
from appmod import open_admin_socket

ADMIN_PORT = 48731
_servers = []


def test_admin_port_is_free():
    sock = open_admin_socket(ADMIN_PORT)
    sock.close()


def test_start_admin_server():
    server = open_admin_socket(ADMIN_PORT)
    _servers.append(server)
    assert server.getsockname()[1] == ADMIN_PORT
'''},
  stable={"TEST": '''
import pytest

from appmod import open_admin_socket

ADMIN_PORT = 0


@pytest.fixture
def admin_server():
    server = open_admin_socket(ADMIN_PORT)
    yield server
    server.close()


def test_admin_port_is_free():
    sock = open_admin_socket(ADMIN_PORT)
    sock.close()


def test_start_admin_server(admin_server):
    assert admin_server.getsockname()[1] > 0
'''})

T(topic="report_scratch_file", cls="resource", node="test_export_roundtrip",
  trigger="shared fixed path in the system temp dir; two test processes running at once overwrite each other's file (parallel CI jobs / xdist)",
  robust="concurrent runs (pytest tmp_path)",
  common={"appmod.py": '''
import json
import os
import tempfile
import uuid


def export_report(rows, directory=None):
    directory = directory or tempfile.gettempdir()
    path = os.path.join(directory, "quarterly_report_export.json")
    with open(path, "w") as fh:
        json.dump({"run": uuid.uuid4().hex, "rows": rows}, fh)
    return path


def summarize(rows):
    return sum(len(str(r)) for r in rows * 20000)
'''},
  flaky={"TEST": '''
import json

from appmod import export_report, summarize


def test_export_roundtrip():
    rows = [{"q": 1, "rev": 10}, {"q": 2, "rev": 12}]
    path = export_report(rows)
    with open(path) as fh:
        run_id = json.load(fh)["run"]
    summarize(rows)
    with open(path) as fh:
        data = json.load(fh)
    assert data["run"] == run_id and data["rows"] == rows
'''},
  stable={"TEST": '''
import json

from appmod import export_report, summarize


def test_export_roundtrip(tmp_path):
    rows = [{"q": 1, "rev": 10}, {"q": 2, "rev": 12}]
    path = export_report(rows, directory=tmp_path)
    with open(path) as fh:
        run_id = json.load(fh)["run"]
    summarize(rows)
    with open(path) as fh:
        data = json.load(fh)
    assert data["run"] == run_id and data["rows"] == rows
'''})

T(topic="session_expiry_timer", cls="resource", node="test_new_session_survives_request",
  trigger="leaked threading.Timer from test_expire_sessions clears the module-global store 60 ms later; the next test fails if it is still running then (CPU load)",
  robust="CPU load, order (timer cancelled in teardown)",
  common={"appmod.py": '''
import threading

SESSIONS = {}


def schedule_expiry(delay):
    timer = threading.Timer(delay, SESSIONS.clear)
    timer.daemon = True
    timer.start()
    return timer


def handle_request(sid):
    page = "".join(f"<p>{sid}:{i}</p>" for i in range(100000))
    return SESSIONS.get(sid), len(page)
'''},
  flaky={"TEST": '''
from appmod import SESSIONS, handle_request, schedule_expiry


def test_expire_sessions():
    schedule_expiry(0.06)
    assert SESSIONS == {}


def test_new_session_survives_request():
    SESSIONS["s42"] = "ada"
    user, size = handle_request("s42")
    assert size > 0
    assert SESSIONS.get("s42") == "ada"
'''},
  stable={"TEST": '''
import pytest

from appmod import SESSIONS, handle_request, schedule_expiry


@pytest.fixture
def expiry():
    timers = []
    yield lambda d: timers.append(schedule_expiry(d))
    for t in timers:
        t.cancel()


def test_expire_sessions(expiry):
    expiry(0.06)
    assert SESSIONS == {}


def test_new_session_survives_request():
    SESSIONS["s42"] = "ada"
    user, size = handle_request("s42")
    assert size > 0
    assert SESSIONS.get("s42") == "ada"
'''})

T(topic="audit_flusher", cls="io", node="test_written_events_reach_disk",
  trigger="reads the file after a fixed 25 ms sleep while a background thread flushes a buffered handle every 20 ms plus formatting work; fails when the flusher is late (CPU load)",
  robust="CPU load (explicit flush before reading)",
  common={"appmod.py": '''
import threading
import time


class AuditLog:
    def __init__(self, path, interval=0.02):
        self._fh = open(path, "a", buffering=1 << 16)
        self._lock = threading.Lock()
        self._pending = []
        self.interval = interval
        threading.Thread(target=self._flusher, daemon=True).start()

    def write(self, event):
        with self._lock:
            self._pending.append(event)

    def flush(self):
        with self._lock:
            batch, self._pending = self._pending, []
        text = "".join(f"{e}|{'x' * 50}\\n" for e in batch for _ in range(3000))
        self._fh.write(text)
        self._fh.flush()

    def _flusher(self):
        while True:
            time.sleep(self.interval)
            self.flush()
'''},
  flaky={"TEST": '''
import time

from appmod import AuditLog


def test_written_events_reach_disk(tmp_path):
    path = tmp_path / "audit.log"
    log = AuditLog(path)
    log.write("login:ada")
    time.sleep(0.025)
    assert "login:ada" in path.read_text()
'''},
  stable={"TEST": '''
import time

from appmod import AuditLog


def test_written_events_reach_disk(tmp_path):
    path = tmp_path / "audit.log"
    log = AuditLog(path)
    log.write("login:ada")
    log.flush()
    assert "login:ada" in path.read_text()
'''})

T(topic="rates_fixture_path", cls="infrastructure", node="test_loads_exchange_rates",
  trigger="fixture file opened relative to the current directory; fails when pytest is started from another directory (e.g. the repository root in CI)",
  robust="invocation directory (path from __file__)",
  common={"fixtures/rates.json": '{"EUR": 1.08, "GBP": 1.27}\n', "appmod.py": '''
import json


def load_rates(path):
    with open(path) as fh:
        return json.load(fh)
'''},
  flaky={"TEST": '''
from appmod import load_rates


def test_loads_exchange_rates():
    rates = load_rates("fixtures/rates.json")
    assert rates["EUR"] == 1.08
'''},
  stable={"TEST": '''
from pathlib import Path

from appmod import load_rates

FIXTURES = Path(__file__).parent / "fixtures"


def test_loads_exchange_rates():
    rates = load_rates(FIXTURES / "rates.json")
    assert rates["EUR"] == 1.08
'''})

T(topic="table_render_width", cls="infrastructure", node="test_render_truncates_long_cells",
  trigger="output width comes from shutil.get_terminal_size(); differs when COLUMNS is set or a terminal is attached (developer shells, some CI runners)",
  robust="terminal/COLUMNS (explicit width)",
  common={},
  flaky={"appmod.py": '''
import shutil


def render(rows, width=None):
    width = width or shutil.get_terminal_size().columns
    return "\\n".join(" | ".join(rows_i)[:width] for rows_i in rows)
''', "TEST": '''
from appmod import render


def test_render_truncates_long_cells():
    rows = [["id", "description"], ["1", "x" * 200]]
    lines = render(rows).splitlines()
    assert len(lines[1]) == 80
'''},
  stable={"appmod.py": '''
import shutil


def render(rows, width=None):
    width = width or shutil.get_terminal_size().columns
    return "\\n".join(" | ".join(rows_i)[:width] for rows_i in rows)
''', "TEST": '''
from appmod import render


def test_render_truncates_long_cells():
    rows = [["id", "description"], ["1", "x" * 200]]
    lines = render(rows, width=80).splitlines()
    assert len(lines[1]) == 80
'''})
