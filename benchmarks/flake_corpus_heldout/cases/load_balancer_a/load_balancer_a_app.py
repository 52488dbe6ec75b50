import itertools


class Balancer:
    def __init__(self, backends):
        self.backends = list(backends)
        self._cycle = itertools.cycle(self.backends)

    def pick(self):
        return next(self._cycle)
