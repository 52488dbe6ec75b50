import random


def shuffled_questions(questions):
    out = list(questions)
    if len(set(out)) < 2:
        return out
    while out == list(questions):
        random.shuffle(out)
    return out
