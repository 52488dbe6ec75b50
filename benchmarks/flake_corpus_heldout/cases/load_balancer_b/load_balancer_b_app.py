import random


class Balancer:
    def __init__(self, backends):
        self.backends = list(backends)

    def pick(self):
        return random.choice(self.backends)
