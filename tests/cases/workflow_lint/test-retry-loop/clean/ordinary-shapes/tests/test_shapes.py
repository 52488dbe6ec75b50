"""Loops that look like retries and are not: each asks a question, polls, waits for readiness, searches
or exercises the recovery the code under test documents."""

import os
import socket
import time

from OpenSSL import SSL

from app import engine, exc, solve


def symlinks_supported(tmp):
    try:
        os.symlink(tmp / "a", tmp / "b")
        return True
    except OSError:
        return False


def test_links_each_file(tmp_path):
    for name in ("x", "y", "z"):
        if not symlinks_supported(tmp_path):
            continue
        (tmp_path / name).write_text(name)


def test_probe_per_input(tmp_path):
    made = [name for name in ("x", "y") if symlinks_supported(tmp_path) and name]
    assert len(made) <= 2


def read_all(conn):
    chunks = []
    while True:
        try:
            chunk = conn.recv(4096)
        except SSL.WantReadError:
            continue
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def test_tls_read(conn):
    while True:
        try:
            data = conn.recv(1024)
            break
        except (SSL.WantReadError, SSL.WantWriteError):
            pass
    assert data


def wait_until_listening(port, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except ConnectionRefusedError:
            time.sleep(0.05)
    raise TimeoutError(port)


def test_server_answers(server):
    wait_until_listening(server.port)
    assert server.get("/") == 200


def execute_with_reconnect(conn, statement, retries=3):
    for attempt in range(retries + 1):
        try:
            return conn.execute(statement)
        except exc.DBAPIError as error:
            if attempt < retries and error.connection_invalidated:
                conn.invalidate()
                conn.rollback()
            else:
                raise


def test_reconnect_recipe(mock_disconnects):
    with engine.connect() as conn:
        assert execute_with_reconnect(conn, "select 1") is not None
    assert mock_disconnects.count == 1


def test_largest_step():
    eps = 1.0
    while eps > 1e-12:
        try:
            solve(1.0 + eps)
            break
        except OverflowError:
            eps /= 2
    assert eps > 0


def test_outer_a():
    def attempt():
        return os.getpid() > 0

    for _ in range(3):
        if attempt():
            break


def test_outer_b():
    def attempt():
        try:
            return os.getpid() > 0
        except OSError:
            return False

    assert attempt()
