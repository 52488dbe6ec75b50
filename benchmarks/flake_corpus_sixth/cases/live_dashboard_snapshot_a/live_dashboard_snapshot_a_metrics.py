"""Live metrics: a collector thread discovers new gauges, the dashboard renders them."""
import threading


class Registry:
    def __init__(self):
        self.gauges = {}
        self.lock = threading.Lock()

    def set(self, name, value):
        with self.lock:
            self.gauges[name] = value

    def snapshot(self):
        return self.gauges.items()


def render(registry):
    return "\n".join(f"{name:<24} {value:>10.3f}" for name, value in registry.snapshot())
