import random


def shuffled_questions(questions):
    out = list(questions)
    random.shuffle(out)
    return out
