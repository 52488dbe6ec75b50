"""Pick a random panel of respondents for the follow-up interview."""
import random


def pick_panel(respondents, k=3, rng=random):
    return rng.sample(respondents, k)
