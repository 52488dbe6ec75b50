def leaderboard(scores):
    players = set(scores)
    return sorted(players, key=lambda p: -scores[p])
