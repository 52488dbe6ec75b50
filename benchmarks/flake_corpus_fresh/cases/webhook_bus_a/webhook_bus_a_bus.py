"""Tiny in-process event bus used by the shop backend."""
_subscribers = {}


def subscribe(event, handler):
    _subscribers.setdefault(event, []).append(handler)


def unsubscribe(event, handler):
    _subscribers.get(event, []).remove(handler)


def publish(event, payload):
    delivered = 0
    for handler in list(_subscribers.get(event, [])):
        handler(payload)
        delivered += 1
    return delivered
