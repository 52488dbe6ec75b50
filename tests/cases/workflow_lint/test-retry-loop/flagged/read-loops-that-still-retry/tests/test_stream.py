"""Read loops that go round on a failed check or a failure of the act: retries."""

import socket


def test_greeting(server_address):
    sock = socket.create_connection(server_address)
    while True:
        try:
            greeting = sock.recv(64)
            assert greeting.startswith(b"220 ")
            break
        except AssertionError:
            continue



class LineReader:
    def __init__(self, sock):
        self.sock = sock
        self.running = True

    def first_line(self):
        while self.running:
            try:
                line = self.sock.recv(1024)
                assert line.endswith(b"\n")
                return line
            except ConnectionResetError:
                self.running = False
            except AssertionError:
                pass  # a partial line: ask again


def test_first_line(server_address):
    assert LineReader(socket.create_connection(server_address)).first_line() == b"hello\n"


def _check_banner(sock):
    try:
        assert sock.recv(64).startswith(b"220 ")
    except AssertionError:
        pass


def test_banner(server_address):
    _check_banner(socket.create_connection(server_address))


_check_banner(socket.socket())
