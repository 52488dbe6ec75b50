import pytest

import webhook_bus_b_bus as bus
from webhook_bus_b_webhooks import WebhookDispatcher


@pytest.fixture
def dispatcher():
    d = WebhookDispatcher("https://hooks.example.test/orders")
    d.start()
    yield d
    d.stop()


def test_order_created_delivers_one_webhook(dispatcher):
    delivered = bus.publish("order.created", {"id": 7})
    assert delivered == 1
    assert dispatcher.sent == [("POST", "https://hooks.example.test/orders", 7)]


def test_audit_listener_receives_events():
    audit = []
    bus.subscribe("order.created", audit.append)
    bus.publish("order.created", {"id": 1})
    assert audit == [{"id": 1}]
