import random


def next_queue(tracks, last_played):
    queue = list(tracks)
    random.shuffle(queue)
    if queue[0] == last_played:
        swap = random.randrange(1, len(queue))
        queue[0], queue[swap] = queue[swap], queue[0]
    return queue
