SCORES = {"kai": 91, "mia": 87, "noa": 87, "lev": 70, "ola": 65}


def top(players, n):
    return sorted(set(players), key=lambda p: (-SCORES[p], p))[:n]


def test_top_three():
    assert top(["mia", "kai", "noa", "lev", "ola", "kai"], 3) == ["kai", "mia", "noa"]
