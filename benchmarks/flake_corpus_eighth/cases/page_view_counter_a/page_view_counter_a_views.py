"""Page-view counter of the analytics middleware."""
import threading


class ViewCounter:
    def __init__(self):
        self.views = {}
        self.access_log = []
        self._lock = threading.Lock()

    def _log(self, page):
        self.access_log.append(page)

    def hit(self, page):
        with self._lock:
            current = self.views.get(page, 0)
            self._log(page)
            self.views[page] = current + 1
