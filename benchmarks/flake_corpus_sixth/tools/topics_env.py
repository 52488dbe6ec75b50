# Async wait, concurrency, network (127.0.0.1 only), infrastructure/environment and I/O topics.
# Lines ending in "#@F" exist only in the flaky twin, "#@S" only in the stable twin. "CID" -> case id.
T = []

# ----------------------------------------------------------------------------------------- async wait
T.append(dict(
    topic="inventory_sync_timeout", cls="async-wait", test="test_sync_finishes_within_timeout",
    trigger="busy machine: asyncio.wait_for(..., timeout=0.15) around ~50 ms of checksum work in a worker thread; on an idle machine it finishes, with a CPU hog on the same core (load) or two runs at once (parallel2) it sometimes times out",
    robust="machine load (generous timeout)",
    conds=["load"],
    files={
"CID_inventory.py": r'''
"""Sync the stock levels to the marketplace; the checksum tells the marketplace whether anything changed."""
import asyncio
import hashlib

WAIT = 0.15  #@F
WAIT = 10.0  #@S


def checksum(rows):
    h = hashlib.md5()
    for sku, qty in rows:
        h.update(f"{sku}:{qty};".encode())
    return h.hexdigest()


async def sync(rows):
    digest = await asyncio.wait_for(asyncio.to_thread(checksum, rows), timeout=WAIT)
    return {"rows": len(rows), "checksum": digest}
''',
"test_CID.py": r'''
import asyncio

import CID_inventory as inventory

ROWS = [(f"SKU-{i:06d}", i % 97) for i in range(WORK)]


def test_sync_finishes_within_timeout():
    result = asyncio.run(inventory.sync(ROWS))
    assert result["rows"] == len(ROWS)
'''.replace("WORK", "80000"),
    }))

T.append(dict(
    topic="chat_moderation_queue", cls="async-wait", test="test_banned_word_is_flagged",
    trigger="async wait: the background moderation thread is given a fixed time.sleep(0.01) to scan the new chat message before the test checks the flags; under machine load (or when the thread is scheduled late) the check runs first",
    robust="machine load (waits on the queue with join())",
    conds=["load"],
    files={
"CID_moderation.py": r'''
"""Chat moderation: new messages are scanned by a background thread so that posting stays fast."""
import queue
import re
import threading

BANNED = {"scamlink", "freecoins"}


class Moderator:
    def __init__(self):
        self.flags = {}
        self.pending = queue.Queue()
        threading.Thread(target=self._run, daemon=True, name="moderator").start()

    def _run(self):
        while True:
            msg_id, text = self.pending.get()
            for _ in range(3):  # normalisation passes: case, leetspeak, homoglyphs (simulated)
                words = [w.lower() for w in re.findall(r"\w+", text)]
            hits = {}
            for w in words:
                if w in BANNED:
                    hits[w] = hits.get(w, 0) + 1
            self.flags[msg_id] = sorted(hits)
            self.pending.task_done()

    def post(self, msg_id, text):
        self.pending.put((msg_id, text))

    def flush(self):
        self.pending.join()

    def flagged(self, msg_id):
        return self.flags.get(msg_id)
''',
"test_CID.py": r'''
import time

import CID_moderation as moderation

MESSAGE = " ".join(["hey all check out my stream tonight at nine"] * 1000) + " scamlink"


def test_banned_word_is_flagged():
    mod = moderation.Moderator()
    mod.post("m-1", MESSAGE)
    time.sleep(0.01)  #@F
    mod.flush()  #@S
    assert mod.flagged("m-1") == ["scamlink"]
''',
    }))

T.append(dict(
    topic="barcode_label_cli", cls="async-wait", test="test_cli_writes_label",
    trigger="busy machine: the test starts the shipping-label CLI as a child Python process and sleeps a fixed 0.3 s instead of waiting for it; interpreter start-up plus work fits on an idle machine but not always under a CPU hog on the same core (load) or heavy load",
    robust="machine load (proc.wait())",
    conds=["load"],
    files={
"CID_label.py": r'''
"""Shipping-label CLI: 'python CID_label.py ORDER OUT' renders the label bitmap and writes a greyscale PGM preview."""
import sys


def downscale(pixels, w, h, f):
    out = []
    for y in range(0, h, f):
        for x in range(0, w, f):
            out.append(sum(pixels[(y + dy) * w + x + dx] for dy in range(f) for dx in range(f)) // (f * f))
    return out


def main(src, dst):
    w = h = 384
    pixels = [(x * y) % 256 for y in range(h) for x in range(w)]
    small = downscale(pixels, w, h, 4)
    with open(dst + ".part", "wb") as fh:
        fh.write(b"P5 96 96 255\n" + bytes(small))
    import os
    os.replace(dst + ".part", dst)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
''',
"test_CID.py": r'''
import pathlib
import subprocess
import sys
import time

CLI = pathlib.Path(__file__).resolve().parent / "CID_label.py"


def test_cli_writes_label(tmp_path):
    out = tmp_path / "label.pgm"
    proc = subprocess.Popen([sys.executable, str(CLI), "ORD-1001", str(out)])
    time.sleep(0.3)  #@F
    proc.wait(timeout=60)  #@S
    try:
        assert out.exists()
        assert out.read_bytes().startswith(b"P5 96 96 255\n")
    finally:
        proc.wait(timeout=60)
''',
    }))

# ----------------------------------------------------------------------------------------- concurrency
T.append(dict(
    topic="seat_reservation_race", cls="concurrency", test="test_no_overbooking",
    trigger="thread race: reserve() checks free seats, authorises the payment (2 ms, releases the GIL), then decrements (check-then-act without a lock); 8 customers arriving at random times within 50 ms for 5 seats oversell when two arrive within the window of the last seat",
    robust="thread scheduling (lock around check and decrement)",
    conds=["load"],
    files={
"CID_venue.py": r'''
"""Seat reservations for a small venue; the box office and the web shop reserve concurrently."""
import hashlib
import threading
import time


def authorize_payment(who):
    time.sleep(0.002)  # stand-in for the payment gateway round trip
    return hashlib.sha1(who.encode()).hexdigest()[:8]


def issue_ticket(who, seat):
    return f"T-{seat}-{authorize_payment(who)}"


class Venue:
    def __init__(self, seats):
        self.free = seats
        self.sold = []
        self._lock = threading.Lock()

    def reserve(self, who):
        with self._lock:  #@S
            if self.free > 0:  #@S
                ticket = issue_ticket(who, self.free)  #@S
                self.free -= 1  #@S
                self.sold.append(ticket)  #@S
                return ticket  #@S
            return None  #@S
        if self.free > 0:  #@F
            ticket = issue_ticket(who, self.free)  #@F
            self.free -= 1  #@F
            self.sold.append(ticket)  #@F
            return ticket  #@F
        return None  #@F
''',
"test_CID.py": r'''
import random
import threading
import time

import CID_venue as venue


def test_no_overbooking():
    v = venue.Venue(seats=5)

    def customer(i):
        time.sleep(random.random() * 0.05)  # customers arrive at random times
        v.reserve(f"c{i}")

    threads = [threading.Thread(target=customer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(v.sold) == 5
    assert v.free == 0
''',
    }))

T.append(dict(
    topic="live_dashboard_snapshot", cls="concurrency", test="test_dashboard_renders_while_collecting",
    trigger="thread race: the dashboard iterates the live metrics dict (3,000+ gauges, a few ms per render) while the collector thread adds new gauges in bursts; 'RuntimeError: dictionary changed size during iteration' when the collector is switched in during a render (more often on a busy machine)",
    robust="thread scheduling (snapshot under the registry lock)",
    conds=["load"],
    files={
"CID_metrics.py": r'''
"""Live metrics: a collector thread discovers new gauges, the dashboard renders them."""
import threading


class Registry:
    def __init__(self):
        self.gauges = {}
        self.lock = threading.Lock()

    def set(self, name, value):
        with self.lock:
            self.gauges[name] = value

    def snapshot(self):
        return self.gauges.items()  #@F
        with self.lock:  #@S
            return list(self.gauges.items())  #@S


def render(registry):
    return "\n".join(f"{name:<24} {value:>10.3f}" for name, value in registry.snapshot())
''',
"test_CID.py": r'''
import threading
import time

import CID_metrics as metrics


def test_dashboard_renders_while_collecting():
    reg = metrics.Registry()
    for i in range(3000):
        reg.set(f"disk_{i}_free", i * 1.5)
    stop = threading.Event()

    def collector():  # discovers new processes in bursts
        for i in range(2000):
            if stop.is_set():
                break
            reg.set(f"proc_{i}_rss", i * 0.25)
            if i % 50 == 0:
                time.sleep(0.001)

    t = threading.Thread(target=collector)
    t.start()
    try:
        for _ in range(RENDERS):
            assert metrics.render(reg).startswith("disk_0_free")
            time.sleep(0.002)  # refresh interval (shortened for the test)
    finally:
        stop.set()
        t.join()
'''.replace("RENDERS", "5"),
    }))

T.append(dict(
    topic="order_id_generator", cls="concurrency", test="test_ids_from_many_threads",
    trigger="thread race: order ids come from one module-level generator shared by the request threads; a thread switch while the generator body runs gives 'ValueError: generator already executing'",
    robust="thread scheduling (lock around next())",
    conds=["load"],
    files={
"CID_ids.py": r'''
"""Human-friendly order ids with a Luhn-style check digit."""
import threading


def _check_digit(n):
    digits = [int(d) for d in str(n)]
    for _ in range(WORK):
        total = sum(d * (2 if i % 2 else 1) for i, d in enumerate(reversed(digits)))
    return (10 - total % 10) % 10


def _sequence(prefix):
    n = 100000
    while True:
        n += 1
        yield f"{prefix}-{n}{_check_digit(n)}"


_gen = _sequence("ORD")
_lock = threading.Lock()


def next_order_id():
    return next(_gen)  #@F
    with _lock:  #@S
        return next(_gen)  #@S
'''.replace("WORK", "3"),
"test_CID.py": r'''
import threading

import CID_ids as ids


def test_ids_from_many_threads():
    got, errors = [], []

    def handler():
        try:
            for _ in range(600):
                got.append(ids.next_order_id())
        except ValueError as e:
            errors.append(e)

    threads = [threading.Thread(target=handler) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(set(got)) == 2400
''',
    }))

# ----------------------------------------------------------------------------------------- network
T.append(dict(
    topic="spam_score_timeout", cls="network", test="test_comment_gets_spam_score",
    trigger="busy machine: the client's socket timeout (0.2 s) is only ~4 times the stub spam-scoring server's CPU work per comment (~45 ms); under load spikes of the shared machine the recv times out (measured: plain 1/10, parallel2 1/4, but 0/9 with the single pinned CPU hog of the load condition); low flaky rate",
    robust="machine load (timeout of 10 s)",
    conds=["load"],
    files={
"CID_spamclient.py": r'''
"""Client of the spam-scoring service used by comment moderation (line protocol: 'SCORE <author> <words>' -> '<score>')."""
import socket

TIMEOUT = 0.2  #@F
TIMEOUT = 10.0  #@S


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
''',
"CID_stub.py": r'''
"""Local stand-in for the spam-scoring service: a toy model (some CPU work per request)."""
import socket
import threading


def _score(author, words):
    h = 0
    for i in range(WORK):
        h = (h * 31 + i + len(author) * words) % 1000003
    return 5000 + h % 100


class SpamScoreStub:
    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(5)
        self.addr = self.sock.getsockname()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                line = conn.makefile().readline().split()
                conn.sendall(f"{_score(line[1], int(line[2]))}\n".encode())

    def close(self):
        self.sock.close()
'''.replace("WORK", "200000"),
"test_CID.py": r'''
import pytest

import CID_spamclient as spamclient
import CID_stub as stub


@pytest.fixture
def service():
    s = stub.SpamScoreStub()
    yield s
    s.close()


def test_comment_gets_spam_score(service):
    score = spamclient.score(service.addr, "troll42", 3)
    assert 5000 <= score < 5100
''',
    }))

T.append(dict(
    topic="mail_relay_stub_listen", cls="network", test="test_password_reset_mail_is_relayed",
    trigger="server start race: the SMTP stub picks a free port in __init__ but binds and listens only inside its thread (after loading its config); the client connects right after start() and gets ConnectionRefusedError when the thread has not reached listen() yet",
    robust="thread scheduling (socket bound and listening before the thread starts)",
    conds=["load"],
    files={
"CID_relay.py": r'''
"""A minimal SMTP-like relay stub for tests: accepts one message per connection."""
import json
import socket
import threading


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class RelayStub(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.port = free_port()  #@F
        self.sock = socket.socket()  #@S
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  #@S
        self.sock.bind(("127.0.0.1", 0))  #@S
        self.sock.listen(5)  #@S
        self.port = self.sock.getsockname()[1]  #@S
        self.messages = []

    def run(self):
        self.config = json.loads(json.dumps({"banner": "220 relay.test", "domains": [f"d{i}.test" for i in range(CONFIG)]}))
        self.sock = socket.socket()  #@F
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  #@F
        self.sock.bind(("127.0.0.1", self.port))  #@F
        self.sock.listen(5)  #@F
        conn, _ = self.sock.accept()
        with conn:
            conn.sendall(self.config["banner"].encode() + b"\r\n")
            self.messages.append(conn.makefile("rb").read().decode())


def send_mail(port, to, body):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        assert s.recv(64).startswith(b"220")
        s.sendall(f"RCPT TO:<{to}>\r\n\r\n{body}".encode())
'''.replace("CONFIG", "5000"),
"test_CID.py": r'''
import CID_relay as relay


def test_password_reset_mail_is_relayed():
    server = relay.RelayStub()
    server.start()
    relay.send_mail(server.port, "ana@example.com", "Your reset link: https://example.com/r/abc")
    server.join(timeout=10)
    assert "reset link" in server.messages[0]
''',
    }))

# ----------------------------------------------------------------------------------------- infrastructure
T.append(dict(
    topic="welcome_email_templates", cls="infrastructure", test="test_welcome_email_rendering",
    trigger="working directory: the template directory is a relative path, so the test passes only when pytest is started from the case directory (fails from the parent directory, cwd-parent)",
    robust="working directory (path relative to the module file)",
    files={
"CID_templates/welcome.txt": "Subject: Welcome, $user!\nYour workspace: $workspace\nPlan: $plan\n",
"CID_render.py": r'''
"""Plain-text transactional e-mails (string.Template files shipped next to the code)."""
import os
import pathlib
import string

TEMPLATE_DIR = "CID_templates"  #@F
TEMPLATE_DIR = pathlib.Path(__file__).resolve().parent / "CID_templates"  #@S


def render(name, **ctx):
    with open(os.path.join(TEMPLATE_DIR, name + ".txt"), encoding="utf-8") as fh:
        return string.Template(fh.read()).substitute(ctx)
''',
"test_CID.py": r'''
import CID_render as render


def test_welcome_email_rendering():
    text = render.render("welcome", user="Ana", workspace="acme.example.app", plan="Team")
    assert text.splitlines() == ["Subject: Welcome, Ana!", "Your workspace: acme.example.app", "Plan: Team"]
''',
    }))

T.append(dict(
    topic="telemetry_opt_out", cls="infrastructure", test="test_first_run_sends_install_event",
    trigger="environment: the client disables telemetry when CI is set (as on every CI service); passes on a developer machine, fails under CI=true (env-ci)",
    robust="environment (the test removes CI/DO_NOT_TRACK with monkeypatch)",
    conds=["env-ci"],
    files={
"CID_telemetry.py": r'''
"""Anonymous usage telemetry of the CLI; opt-out via DO_NOT_TRACK, off on CI."""
import os


def enabled():
    if os.environ.get("DO_NOT_TRACK") == "1":
        return False
    return not os.environ.get("CI")


class Telemetry:
    def __init__(self):
        self.events = []

    def track(self, name):
        if enabled():
            self.events.append(name)

    def first_run(self):
        self.track("install")
''',
"test_CID.py": r'''
import CID_telemetry as telemetry


def test_first_run_sends_install_event(monkeypatch):
    monkeypatch.delenv("CI", raising=False)  #@S
    monkeypatch.delenv("DO_NOT_TRACK", raising=False)
    client = telemetry.Telemetry()
    client.first_run()
    assert client.events == ["install"]
''',
    }))

# ----------------------------------------------------------------------------------------- io
T.append(dict(
    topic="font_cache_dir", cls="io", test="test_font_cache_is_built",
    trigger="shared fixed directory: the font cache is built in /tmp/CID-fontcache and removed at teardown; two runs at the same time (parallel2) delete each other's files",
    robust="parallel runs (tmp_path)",
    files={
"CID_fonts.py": r'''
"""Font metrics cache for the PDF renderer."""
import json
import os


def build_cache(cache_dir, fonts):
    os.makedirs(cache_dir, exist_ok=True)
    for name in fonts:
        widths = {chr(c): (c * 7 + len(name)) % 13 + 3 for c in range(32, 127)}
        with open(os.path.join(cache_dir, name + ".json"), "w") as fh:
            json.dump(widths, fh)
    return sorted(os.listdir(cache_dir))
''',
"test_CID.py": r'''
import json
import os
import shutil

import pytest

import CID_fonts as fonts

FONTS = [f"font{i:03d}" for i in range(300)]


@pytest.fixture
def cache_dir(tmp_path):
    d = "/tmp/CID-fontcache"  #@F
    d = str(tmp_path / "fontcache")  #@S
    yield d
    shutil.rmtree(d, ignore_errors=True)


def test_font_cache_is_built(cache_dir):
    listed = fonts.build_cache(cache_dir, FONTS)
    assert listed == [f + ".json" for f in FONTS]
    for f in FONTS:
        with open(os.path.join(cache_dir, f + ".json")) as fh:
            assert json.load(fh)["A"] > 0
''',
    }))

T.append(dict(
    topic="asset_rebuild_mtime", cls="io", test="test_edited_stylesheet_is_rebuilt",
    trigger="timestamp granularity + clock: staleness is decided on whole-second mtimes; the test waits 0.7 s before editing the source, so the edit lands in the same second as the build (and is missed) in ~30% of runs",
    robust="timestamp granularity (content hash)",
    conds=["load"],
    files={
"CID_assets.py": r'''
"""Incremental asset pipeline: minify a stylesheet only when it changed."""
import hashlib
import pathlib
import re


def minify(css):
    return re.sub(r"\s+", " ", re.sub(r"/\*.*?\*/", "", css, flags=re.S)).strip()


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def needs_rebuild(src, out):
    if not out.exists():
        return True
    return int(src.stat().st_mtime) > int(out.stat().st_mtime)  # whole seconds, as in the build manifest  #@F
    stamp = out.with_suffix(".src-sha256")  #@S
    return not stamp.exists() or stamp.read_text() != _digest(src)  #@S


def build(src, out):
    out.write_text(minify(src.read_text()))
    out.with_suffix(".src-sha256").write_text(_digest(src))  #@S
''',
"test_CID.py": r'''
import time

import CID_assets as assets

CSS = "/* theme */\nbody {\n  color: #333;\n}\n" * 200


def test_edited_stylesheet_is_rebuilt(tmp_path):
    src, out = tmp_path / "site.css", tmp_path / "site.min.css"
    src.write_text(CSS)
    assets.build(src, out)
    assert not assets.needs_rebuild(src, out)
    time.sleep(0.7)  # let the clock move on before editing
    src.write_text(CSS.replace("#333", "#222"))
    assert assets.needs_rebuild(src, out)
''',
    }))
