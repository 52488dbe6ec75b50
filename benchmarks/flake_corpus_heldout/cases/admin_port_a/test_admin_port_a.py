from admin_port_a_app import open_admin_socket

ADMIN_PORT = 48731
_servers = []


def test_admin_port_is_free():
    sock = open_admin_socket(ADMIN_PORT)
    sock.close()


def test_start_admin_server():
    server = open_admin_socket(ADMIN_PORT)
    _servers.append(server)
    assert server.getsockname()[1] == ADMIN_PORT
