"""`lanegate flake` runs two copies of a new test at the same moment in one `/tmp`, one network and
one working tree, as two pytest-xdist workers on one runner do: a test that writes a fixed path
under `/tmp` or binds a fixed port collides with its twin; its look-alikes that take a fresh
temporary folder or port 0 pass every run. (Each replay's private `/tmp` and network otherwise
hide the collision: every copy would find them empty.)"""

from __future__ import annotations

from typing import Any

from tests.integration.test_cli_flake import flake, ledger
from tests.unit.flake.repos import feature_repo

SHARED = """\
import os
import socket
import time
from pathlib import Path

import pytest

FIXED = Path("/tmp/lanegate-shared-host-cache.txt")


def test_fixed_tmp_path():
    FIXED.write_text(str(os.getpid()))
    time.sleep(0.25)
    assert FIXED.read_text() == str(os.getpid())
    FIXED.unlink()


@pytest.mark.parametrize("name", ["cache"])
def test_fixed_tmp_path_parametrized(name):
    path = Path(f"/tmp/lanegate-shared-host-{name}-p.txt")
    path.write_text(str(os.getpid()))
    time.sleep(0.25)
    assert path.read_text() == str(os.getpid())
    path.unlink()


def test_fixed_port():
    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", 47613))
        server.listen()
        time.sleep(0.25)


def test_own_tmp_path(tmp_path):
    mine = tmp_path / "cache.txt"
    mine.write_text(str(os.getpid()))
    time.sleep(0.1)
    assert mine.read_text() == str(os.getpid())


def test_port_zero():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        time.sleep(0.1)
"""


def _shared(test: dict[str, Any]) -> dict[str, Any]:
    (batch,) = [b for b in test["batches"] if b["dimension"] == "shared-host"]
    return batch


def test_copies_started_together_collide_on_a_fixed_path_and_port(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, {"tests/test_shared.py": SHARED})
    assert flake(repo.path) == 1
    printed = capsys.readouterr().out
    tests = {t["node_id"].split("::")[1]: t for t in ledger(repo.path)["tests"]}
    # a parametrized test gets the pairs too (its risks were looked up by function id only)
    for name in (
        "test_fixed_tmp_path",
        "test_fixed_tmp_path_parametrized[cache]",
        "test_fixed_port",
    ):
        test = tests[name]
        batch = _shared(test)
        assert batch["runs"] == 6 and batch["failed"] >= 1, (name, batch)
        assert {r["outcome"] for r in test["replays"]} == {"passed"}, name  # alone: it passes
        assert not test["deterministic"] and test["exposed_by"] == "shared-host", name
        assert (
            "a copy of itself sharing /tmp, the network and the working tree" in test["reproduce"]
        )
        assert test["power"]["shared_host"] == 6
    for name in ("test_own_tmp_path", "test_port_zero"):
        test = tests[name]
        assert test["deterministic"], (name, test["batches"])
        assert _shared(test)["sequence"] == "pppppp", name
    assert "exposed by shared-host" in printed


TWO = """\
import time
from pathlib import Path

REPORT = Path("/tmp/lanegate-shared-host-report.txt")


def test_writes_a():
    REPORT.write_text("a")
    time.sleep(0.25)
    assert REPORT.read_text() == "a"


def test_writes_b():
    REPORT.write_text("b")
    time.sleep(0.25)
    assert REPORT.read_text() == "b"
"""


def test_two_different_tests_sharing_a_fixed_path_meet(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    # each test meets a copy of itself harmlessly (both write what they expect to read); only
    # the other test, started beside it as another xdist worker would run it, collides
    repo = feature_repo(make_repo, {"tests/test_report.py": TWO})
    assert flake(repo.path) == 1, capsys.readouterr().out
    tests = {t["node_id"].split("::")[1]: t for t in ledger(repo.path)["tests"]}
    for name in ("test_writes_a", "test_writes_b"):
        batch = _shared(tests[name])
        assert batch["sequence"][:4] == "pppp", (name, batch)  # beside copies of itself
    assert any("f" in _shared(t)["sequence"][4:] for t in tests.values()), tests
    failing = [t for t in tests.values() if not t["deterministic"]]
    assert failing and all(t["exposed_by"] == "shared-host" for t in failing), failing
    assert any("beside the next test" in t["reproduce"] for t in failing)


# The fixed path and the fixed port live in fixtures and in a helper module, not in the test's own
# lines: a test's risk is the code it runs, its fixtures' included. Each copy writes rows of its
# own run id (drawn when its module is imported, so each copy must import it itself, as each
# xdist worker does) and reads them back, or serves a few requests from a server on a fixed
# port; the look-alikes take `tmp_path` and port 0.
EXPORT = """\
import csv


def write_rows(path, batch, rows=20000):
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        for i in range(rows):
            writer.writerow([batch, i])


def batches(path):
    with open(path, newline="") as source:
        return {row[0] for row in csv.reader(source)}
"""

HELD = """\
import http.server
import threading
import urllib.request
import uuid
from pathlib import Path

import pytest

from ledger_export import batches, write_rows

RUN_ID = uuid.uuid4().hex  # drawn at import: each process (each xdist worker) has its own


@pytest.fixture
def export_path():
    return Path("/tmp") / "lanegate-ledger-export.csv"


@pytest.fixture
def own_export_path(tmp_path):
    return tmp_path / "ledger-export.csv"


def serve(port):
    server = http.server.HTTPServer(("127.0.0.1", port), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def metrics():
    server = serve(47719)
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def own_metrics():
    server = serve(0)
    yield server
    server.shutdown()
    server.server_close()


def fetch_all(server):
    port = server.server_address[1]
    for _ in range(20):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as reply:
            assert reply.status == 200


def test_export_at_a_fixed_path(export_path):
    write_rows(export_path, RUN_ID)
    assert batches(export_path) == {RUN_ID}


def test_export_in_own_folder(own_export_path):
    write_rows(own_export_path, RUN_ID)
    assert batches(own_export_path) == {RUN_ID}


def test_metrics_on_a_fixed_port(metrics):
    fetch_all(metrics)


def test_metrics_on_port_zero(own_metrics):
    fetch_all(own_metrics)
"""


def test_a_fixed_path_and_port_in_fixtures_and_helpers_collide(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, {"tests/ledger_export.py": EXPORT, "tests/test_held.py": HELD})
    assert flake(repo.path) == 1, capsys.readouterr().out
    tests = {t["node_id"].split("::")[1]: t for t in ledger(repo.path)["tests"]}
    for name in ("test_export_at_a_fixed_path", "test_metrics_on_a_fixed_port"):
        test = tests[name]
        batch = _shared(test)
        assert batch["runs"] == 6 and "p" in batch["sequence"], (name, batch)
        assert batch["failed"] + batch["error"] >= 1, (name, batch)
        assert not test["deterministic"] and test["exposed_by"] == "shared-host", name
    for name in ("test_export_in_own_folder", "test_metrics_on_port_zero"):
        test = tests[name]
        assert test["deterministic"], (name, test["batches"])
        assert _shared(test)["sequence"] == "pppppp", name
