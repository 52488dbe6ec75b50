class Middleware:
    def __init__(self, name, payload):
        self.name = name
        self.payload = payload


def build_chain(items):
    return [m.name for m in set(items)]


def test_middleware_order():
    junk = [bytearray(n) for n in (len(__file__), 48, 96)]
    auth = Middleware("auth", junk)
    gzip = Middleware("gzip", junk)
    log = Middleware("log", junk)
    assert build_chain([auth, gzip, log, auth]) == ["auth", "gzip", "log"]
