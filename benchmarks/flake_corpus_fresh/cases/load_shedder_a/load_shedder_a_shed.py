import random


class LoadShedder:
    def __init__(self, drop_ratio):
        self.drop_ratio = drop_ratio
        self.seen = 0

    def admit(self):
        self.seen += 1
        return random.random() >= self.drop_ratio
