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


def test_register_and_emit():
    @on("user.created")
    def greet(payload):
        return f"hello {payload['name']}"

    assert emit("user.created", {"name": "ada"}) == "hello ada"
