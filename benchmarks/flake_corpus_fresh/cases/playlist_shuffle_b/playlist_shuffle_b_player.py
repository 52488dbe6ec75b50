import random


def next_queue(tracks, last_played):
    queue = list(tracks)
    random.shuffle(queue)
    return queue
