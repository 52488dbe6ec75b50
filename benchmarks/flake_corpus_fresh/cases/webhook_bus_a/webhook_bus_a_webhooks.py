import webhook_bus_a_bus as bus


class WebhookDispatcher:
    def __init__(self, url):
        self.url = url
        self.sent = []

    def start(self):
        bus.subscribe("order.created", self._send)

    def stop(self):
        bus.unsubscribe("order.created", self._send)

    def _send(self, payload):
        self.sent.append(("POST", self.url, payload["id"]))
