from server_ready_race_a_server import HealthServer, free_port, get


def test_client_gets_health_response():
    port = free_port()
    server = HealthServer(port, warmup_routes=4000)
    server.start()
    assert get(port, "/health") == "ok"
    server.join(5)
