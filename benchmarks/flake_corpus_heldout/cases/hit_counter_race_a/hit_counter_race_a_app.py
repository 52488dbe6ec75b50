class HitCounter:
    def __init__(self):
        self.count = 0
        self.last_path = None

    def _normalize(self, path):
        return path

    def hit(self, path):
        current = self.count
        self.last_path = self._normalize(path)
        self.count = current + 1
