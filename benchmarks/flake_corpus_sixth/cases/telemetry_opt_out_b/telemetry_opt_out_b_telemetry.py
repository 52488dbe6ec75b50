"""Anonymous usage telemetry of the CLI; opt-out via DO_NOT_TRACK, off on CI."""
import os


def enabled():
    if os.environ.get("DO_NOT_TRACK") == "1":
        return False
    return not os.environ.get("CI")


class Telemetry:
    def __init__(self):
        self.events = []

    def track(self, name):
        if enabled():
            self.events.append(name)

    def first_run(self):
        self.track("install")
