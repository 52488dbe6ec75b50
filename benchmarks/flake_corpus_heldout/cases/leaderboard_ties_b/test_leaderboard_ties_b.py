from leaderboard_ties_b_app import leaderboard


def test_leaderboard_order():
    scores = {"dana": 7, "carol": 9, "erin": 7, "bo": 3}
    assert leaderboard(scores) == ["carol", "dana", "erin", "bo"]
