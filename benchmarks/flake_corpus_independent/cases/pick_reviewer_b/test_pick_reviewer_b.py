import random
from dataclasses import dataclass


@dataclass
class Member:
    login: str
    active: bool = True


TEAM = [Member(n) for n in "ana ben cai dev eli fay gus hal ivy jon kim lea".split()]


def pick_reviewer(team, author):
    candidates = [m for m in team if m.active]
    return random.choice(candidates).login


def test_reviewer_is_not_author():
    reviewer = pick_reviewer(TEAM, author="cai")
    assert reviewer in {m.login for m in TEAM}
    assert reviewer != "cai"
