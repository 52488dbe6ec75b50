from percent_shares_a_poll import random_votes, shares


def test_shares_add_up_to_100():
    votes = random_votes()
    assert sum(shares(votes).values()) == 100, votes
