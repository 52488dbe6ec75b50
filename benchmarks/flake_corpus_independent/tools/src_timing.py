CASES = []

def add(topic, cls, trigger, judged, notes_f, notes_s, flaky, stable, extra=None, modes="plain", trigger_env=None):
    CASES.append(dict(topic=topic, cls=cls, trigger=trigger, judged=judged, notes_f=notes_f,
                      notes_s=notes_s, flaky=flaky, stable=stable, extra=extra or {}, modes=modes,
                      trigger_env=trigger_env))

add("background_indexer", "timing", "CPU load (sleep-based wait for a background thread)", "test_index_ready_after_start",
    "Test sleeps a fixed 0.2 s and expects a CPU-bound background build (~0.1 s idle) to have finished.",
    "Test joins the worker thread (with a generous timeout) before asserting.",
'''
import threading
import time

N = 45000


class Indexer:
    def __init__(self, docs):
        self.docs = docs
        self.index = None
        self.done = False
        self.thread = threading.Thread(target=self._build, daemon=True)

    def _build(self):
        index = {}
        for i, doc in enumerate(self.docs):
            for word in doc.split():
                index.setdefault(word, set()).add(i)
        self.index = index
        self.done = True

    def start(self):
        self.thread.start()


def test_index_ready_after_start():
    docs = [f"doc {i} lorem ipsum {i % 97} dolor sit amet {i % 13}" for i in range(N)]
    ix = Indexer(docs)
    ix.start()
    time.sleep(0.2)
    assert ix.done
    assert ix.index["lorem"] == set(range(N))
''',
'''
import threading

N = 45000


class Indexer:
    def __init__(self, docs):
        self.docs = docs
        self.index = None
        self.done = False
        self.thread = threading.Thread(target=self._build, daemon=True)

    def _build(self):
        index = {}
        for i, doc in enumerate(self.docs):
            for word in doc.split():
                index.setdefault(word, set()).add(i)
        self.index = index
        self.done = True

    def start(self):
        self.thread.start()

    def wait(self, timeout):
        self.thread.join(timeout)
        return self.done


def test_index_ready_after_start():
    docs = [f"doc {i} lorem ipsum {i % 97} dolor sit amet {i % 13}" for i in range(N)]
    ix = Indexer(docs)
    ix.start()
    assert ix.wait(timeout=30)
    assert ix.index["lorem"] == set(range(N))
''')

add("hit_counter", "concurrency", "thread interleaving (unsynchronised read-modify-write; more under CPU load)", "test_concurrent_hits",
    "HitCounter.record reads, does Python-level work, then writes back without a lock; a GIL switch in between loses updates.",
    "Same counter with the read-modify-write under a threading.Lock.",
'''
import threading


class HitCounter:
    def __init__(self):
        self.hits = 0
        self.paths = {}

    def record(self, path):
        current = self.hits
        self.paths[path] = self.paths.get(path, 0) + 1
        self.hits = current + 1


def test_concurrent_hits():
    counter = HitCounter()

    def worker(n):
        for i in range(n):
            counter.record(f"/page/{i % 7}")

    threads = [threading.Thread(target=worker, args=(20000,)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert counter.hits == 80000
''',
'''
import threading


class HitCounter:
    def __init__(self):
        self.hits = 0
        self.paths = {}
        self._lock = threading.Lock()

    def record(self, path):
        with self._lock:
            current = self.hits
            self.paths[path] = self.paths.get(path, 0) + 1
            self.hits = current + 1


def test_concurrent_hits():
    counter = HitCounter()

    def worker(n):
        for i in range(n):
            counter.record(f"/page/{i % 7}")

    threads = [threading.Thread(target=worker, args=(20000,)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert counter.hits == 80000
''')

add("lazy_client", "concurrency", "thread interleaving in check-then-act lazy initialisation (mostly under CPU load)", "test_client_created_once",
    "get_client() checks a module global, then builds the client (~2-3 ms of parsing and indexing); a GIL hand-over during that window lets a second thread build another client.",
    "Same lazy init guarded by a lock with a second check inside (double-checked locking).",
'''
import json
import threading

_client = None
CREATED = []
CONFIG = json.dumps({"endpoint": "http://localhost", "keys": list(range(9000))})


class Client:
    def __init__(self, config_json):
        self.config = json.loads(config_json)
        self.index = {k: f"key-{k:05d}" for k in self.config["keys"]}
        CREATED.append(self)


def get_client():
    global _client
    if _client is None:
        _client = Client(CONFIG)
    return _client


def test_client_created_once():
    barrier = threading.Barrier(4)
    results = []

    def worker():
        barrier.wait()
        results.append(get_client())

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(CREATED) == 1
    assert all(r is results[0] for r in results)
''',
'''
import json
import threading

_client = None
_lock = threading.Lock()
CREATED = []
CONFIG = json.dumps({"endpoint": "http://localhost", "keys": list(range(9000))})


class Client:
    def __init__(self, config_json):
        self.config = json.loads(config_json)
        self.index = {k: f"key-{k:05d}" for k in self.config["keys"]}
        CREATED.append(self)


def get_client():
    global _client
    if _client is None:
        with _lock:
            if _client is None:
                _client = Client(CONFIG)
    return _client


def test_client_created_once():
    barrier = threading.Barrier(4)
    results = []

    def worker():
        barrier.wait()
        results.append(get_client())

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(CREATED) == 1
    assert all(r is results[0] for r in results)
''')

add("ttl_cache", "timing", "CPU load (work between set and get approaches the 0.1 s TTL)", "test_value_cached_within_ttl",
    "Real monotonic clock, TTL 0.1 s, ~0.07 s of rendering between set() and get().",
    "TTL cache with an injected fake clock advanced explicitly by the test.",
'''
import time


class TTLCache:
    def __init__(self, ttl, clock=time.monotonic):
        self.ttl, self.clock, self._d = ttl, clock, {}

    def set(self, key, value):
        self._d[key] = (value, self.clock() + self.ttl)

    def get(self, key):
        value, expires = self._d.get(key, (None, 0.0))
        if self.clock() >= expires:
            self._d.pop(key, None)
            return None
        return value


def render_profile(profile):
    rows = []
    for i in range(250000):
        rows.append(f"<td>{profile['name']}:{i}</td>")
    return "".join(rows)


def test_value_cached_within_ttl():
    cache = TTLCache(ttl=0.1)
    profile = {"name": "ada", "id": 1}
    cache.set("user:1", profile)
    html = render_profile(profile)
    assert "ada" in html
    assert cache.get("user:1") == profile
''',
'''
import time


class TTLCache:
    def __init__(self, ttl, clock=time.monotonic):
        self.ttl, self.clock, self._d = ttl, clock, {}

    def set(self, key, value):
        self._d[key] = (value, self.clock() + self.ttl)

    def get(self, key):
        value, expires = self._d.get(key, (None, 0.0))
        if self.clock() >= expires:
            self._d.pop(key, None)
            return None
        return value


def render_profile(profile):
    rows = []
    for i in range(250000):
        rows.append(f"<td>{profile['name']}:{i}</td>")
    return "".join(rows)


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_value_cached_within_ttl():
    clock = FakeClock()
    cache = TTLCache(ttl=0.1, clock=clock)
    profile = {"name": "ada", "id": 1}
    cache.set("user:1", profile)
    html = render_profile(profile)
    clock.now += 0.05
    assert "ada" in html
    assert cache.get("user:1") == profile
    clock.now += 0.06
    assert cache.get("user:1") is None
''')

add("thumbnail_pool", "timing", "CPU load (future.result with a tight timeout)", "test_thumbnail_renders",
    "Work submitted to a ThreadPoolExecutor takes ~0.15 s idle; result(timeout=0.25) times out when the CPU is contended.",
    "Same executor and work, result() with a generous 30 s timeout.",
'''
import zlib
from concurrent.futures import ThreadPoolExecutor


def render_thumbnail(pixels):
    out = pixels
    for _ in range(120):
        out = bytes((b * 7 + 3) & 0xFF for b in out[:20000]) + out[20000:]
    return zlib.crc32(out)


def test_thumbnail_renders():
    pixels = bytes(range(256)) * 400
    with ThreadPoolExecutor(max_workers=2) as pool:
        fut = pool.submit(render_thumbnail, pixels)
        assert isinstance(fut.result(timeout=0.25), int)
''',
'''
import zlib
from concurrent.futures import ThreadPoolExecutor


def render_thumbnail(pixels):
    out = pixels
    for _ in range(120):
        out = bytes((b * 7 + 3) & 0xFF for b in out[:20000]) + out[20000:]
    return zlib.crc32(out)


def test_thumbnail_renders():
    pixels = bytes(range(256)) * 400
    with ThreadPoolExecutor(max_workers=2) as pool:
        fut = pool.submit(render_thumbnail, pixels)
        assert isinstance(fut.result(timeout=30), int)
''')

add("async_pipeline", "concurrency", "CPU load (asyncio completion order depends on how long a step takes)", "test_events_in_order",
    "Two tasks append to a shared list; 'parse' does ~1 ms of CPU between two sleeps, 'notify' sleeps 12.5 ms. Load reorders them.",
    "Same tasks; the test checks gather()'s results, which are in argument order regardless of completion order.",
'''
import asyncio


def checksum(n):
    acc = 0
    for i in range(n):
        acc = (acc * 31 + i) % 1000003
    return acc


async def parse(events):
    await asyncio.sleep(0.005)
    checksum(12000)
    await asyncio.sleep(0.005)
    events.append("parsed")
    return "parsed"


async def notify(events):
    await asyncio.sleep(0.0125)
    events.append("notified")
    return "notified"


def test_events_in_order():
    events = []

    async def main():
        await asyncio.gather(parse(events), notify(events))

    asyncio.run(main())
    assert events == ["parsed", "notified"]
''',
'''
import asyncio


def checksum(n):
    acc = 0
    for i in range(n):
        acc = (acc * 31 + i) % 1000003
    return acc


async def parse(events):
    await asyncio.sleep(0.005)
    checksum(12000)
    await asyncio.sleep(0.005)
    events.append("parsed")
    return "parsed"


async def notify(events):
    await asyncio.sleep(0.0125)
    events.append("notified")
    return "notified"


def test_events_in_order():
    events = []

    async def main():
        return await asyncio.gather(parse(events), notify(events))

    results = asyncio.run(main())
    assert results == ["parsed", "notified"]
    assert sorted(events) == ["notified", "parsed"]
''')

add("async_fetch_timeout", "timing", "CPU load (asyncio.wait_for around executor work, tight timeout)", "test_parse_within_deadline",
    "Executor-backed parse takes ~70 ms idle; asyncio.wait_for(timeout=0.1) expires under CPU contention.",
    "Same code with a 30 s deadline that only guards against hangs.",
'''
import asyncio
import json


def parse_blob(blob):
    doc = json.loads(blob)
    return sum(len(str(v)) for v in doc["items"])


async def fetch_and_parse(blob, timeout):
    loop = asyncio.get_running_loop()
    return await asyncio.wait_for(loop.run_in_executor(None, parse_blob, blob), timeout)


def test_parse_within_deadline():
    blob = json.dumps({"items": [{"id": i, "tags": ["a", "b", str(i)]} for i in range(40000)]})
    assert asyncio.run(fetch_and_parse(blob, timeout=0.1)) > 0
''',
'''
import asyncio
import json


def parse_blob(blob):
    doc = json.loads(blob)
    return sum(len(str(v)) for v in doc["items"])


async def fetch_and_parse(blob, timeout):
    loop = asyncio.get_running_loop()
    return await asyncio.wait_for(loop.run_in_executor(None, parse_blob, blob), timeout)


def test_parse_within_deadline():
    blob = json.dumps({"items": [{"id": i, "tags": ["a", "b", str(i)]} for i in range(40000)]})
    assert asyncio.run(fetch_and_parse(blob, timeout=30)) > 0
''')

add("tokenizer_speed", "timing", "CPU load (wall-clock performance assertion)", "test_tokenize_is_fast",
    "Asserts that tokenising ~30 ms of input finishes within 50 ms of wall time.",
    "Same tokenizer; asserts a complexity property (output size) and only a 10 s hang guard.",
'''
import re
import time

TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\\d+|\\S")


def tokenize(src):
    return TOKEN.findall(src)


def test_tokenize_is_fast():
    src = "def f(x):\\n    return x * 42 + y_1\\n" * 20000
    t0 = time.perf_counter()
    tokens = tokenize(src)
    elapsed = time.perf_counter() - t0
    assert len(tokens) == 12 * 20000
    assert elapsed < 0.05
''',
'''
import re
import time

TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\\d+|\\S")


def tokenize(src):
    return TOKEN.findall(src)


def test_tokenize_is_fast():
    src = "def f(x):\\n    return x * 42 + y_1\\n" * 20000
    t0 = time.perf_counter()
    tokens = tokenize(src)
    elapsed = time.perf_counter() - t0
    assert len(tokens) == 12 * 20000
    assert elapsed < 10
''')

add("worker_status", "timing", "CPU load (fixed sleep to 'let the thread start')", "test_worker_reports_running",
    "Worker compiles 450 patterns (~18 ms) before flipping status to running; the test sleeps 25 ms and checks.",
    "Worker sets a threading.Event once running; the test waits on it.",
'''
import re
import threading
import time


class Worker(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.status = "created"
        self.stop = threading.Event()

    def run(self):
        self.status = "starting"
        self.rules = [re.compile(rf"(?P<k{i}>item{i}[a-z]+\\d{{2,{i % 5 + 3}}})") for i in range(450)]
        self.status = "running"
        self.stop.wait(2)


def test_worker_reports_running():
    w = Worker()
    w.start()
    time.sleep(0.025)
    assert w.status == "running"
    w.stop.set()
''',
'''
import re
import threading


class Worker(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.status = "created"
        self.stop = threading.Event()
        self.started_ok = threading.Event()

    def run(self):
        self.status = "starting"
        self.rules = [re.compile(rf"(?P<k{i}>item{i}[a-z]+\\d{{2,{i % 5 + 3}}})") for i in range(450)]
        self.status = "running"
        self.started_ok.set()
        self.stop.wait(2)


def test_worker_reports_running():
    w = Worker()
    w.start()
    assert w.started_ok.wait(10)
    assert w.status == "running"
    w.stop.set()
''')

add("heartbeat_timer", "timing", "CPU load / scheduler latency (counting timer ticks within a fixed sleep)", "test_heartbeats_sent",
    "A re-arming threading.Timer beats every 10 ms; the test sleeps 70 ms and requires >= 6 beats.",
    "Test waits on a Condition until 6 beats have happened (10 s guard).",
'''
import threading
import time


class Heartbeat:
    def __init__(self, interval):
        self.interval = interval
        self.beats = 0
        self._timer = None
        self._stopped = False

    def _beat(self):
        if self._stopped:
            return
        self.beats += 1
        self._schedule()

    def _schedule(self):
        self._timer = threading.Timer(self.interval, self._beat)
        self._timer.daemon = True
        self._timer.start()

    def start(self):
        self._schedule()

    def stop(self):
        self._stopped = True
        if self._timer:
            self._timer.cancel()


def test_heartbeats_sent():
    hb = Heartbeat(0.01)
    hb.start()
    time.sleep(0.07)
    hb.stop()
    assert hb.beats >= 6
''',
'''
import threading


class Heartbeat:
    def __init__(self, interval):
        self.interval = interval
        self.beats = 0
        self._timer = None
        self._stopped = False
        self.cond = threading.Condition()

    def _beat(self):
        if self._stopped:
            return
        with self.cond:
            self.beats += 1
            self.cond.notify_all()
        self._schedule()

    def _schedule(self):
        self._timer = threading.Timer(self.interval, self._beat)
        self._timer.daemon = True
        self._timer.start()

    def start(self):
        self._schedule()

    def stop(self):
        self._stopped = True
        if self._timer:
            self._timer.cancel()


def test_heartbeats_sent():
    hb = Heartbeat(0.01)
    hb.start()
    with hb.cond:
        ok = hb.cond.wait_for(lambda: hb.beats >= 6, timeout=10)
    hb.stop()
    assert ok
''')
