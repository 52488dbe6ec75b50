import pytest

_handlers = {}


def on(event):
    def deco(fn):
        if event in _handlers:
            raise ValueError(f"handler already registered for {event!r}")
        _handlers[event] = fn
        return fn

    return deco


def emit(event, payload):
    return _handlers[event](payload)


@pytest.fixture(autouse=True)
def _clean_handlers():
    _handlers.clear()
    yield
    _handlers.clear()


def test_register_and_emit():
    @on("user.created")
    def greet(payload):
        return f"hello {payload['name']}"

    assert emit("user.created", {"name": "ada"}) == "hello ada"
