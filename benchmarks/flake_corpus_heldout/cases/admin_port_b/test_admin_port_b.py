import pytest

from admin_port_b_app import open_admin_socket

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
