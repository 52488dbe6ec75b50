import tournament_bracket_seeding_b_bracket as bracket

TEAMS = ["Lions", "Tigers", "Bears", "Wolves", "Eagles", "Sharks", "Hawks", "Bulls"]


def test_top_seeds_meet_only_in_final():
    left, right = bracket.draw(TEAMS)
    assert sorted(left + right) == sorted(TEAMS)
    assert ("Lions" in left) != ("Tigers" in left)
