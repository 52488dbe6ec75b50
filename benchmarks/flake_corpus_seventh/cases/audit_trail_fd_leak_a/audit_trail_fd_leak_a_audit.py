"""Audit trail appended to a JSON-lines file; the writer keeps the file open between events."""
import json
import os


class AuditTrail:
    def __init__(self, path):
        self.path = path
        self._fh = None

    def record(self, event, **data):
        if self._fh is None:
            self._fh = open(self.path, "a", encoding="utf-8")
        self._fh.write(json.dumps({"event": event, **data}) + "\n")
        self._fh.flush()

    def close(self):
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


_TRAILS = {}


def get_trail(path):
    """One writer per file, shared by all request handlers of the process."""
    path = str(path)
    if path not in _TRAILS:
        _TRAILS[path] = AuditTrail(path)
    return _TRAILS[path]


def close_all():
    for trail in _TRAILS.values():
        trail.close()
    _TRAILS.clear()


def export_events(trail_path, out_path):
    with open(trail_path, encoding="utf-8") as src, open(out_path, "w", encoding="utf-8") as dst:
        for line in src:
            dst.write(json.loads(line)["event"] + "\n")


def open_files(suffix):
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.endswith(suffix):
            found.append(target)
    return found
