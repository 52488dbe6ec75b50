from load_balancer_a_app import Balancer


def test_requests_spread_over_backends():
    lb = Balancer(["10.0.0.1", "10.0.0.2"])
    used = {lb.pick() for _ in range(4)}
    assert used == {"10.0.0.1", "10.0.0.2"}
