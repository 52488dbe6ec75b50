import random

import survey_sample_seed_b_survey as survey

RESPONDENTS = [f"r{i:02d}" for i in range(20)]


def test_panel_is_reproducible_with_seed():
    random.seed(2024)
    first = survey.pick_panel(RESPONDENTS)
    random.seed(2024)
    assert survey.pick_panel(RESPONDENTS) == first


def test_panel_snapshot():
    assert survey.pick_panel(RESPONDENTS, rng=random.Random(2024)) == ["r15", "r05", "r09"]
