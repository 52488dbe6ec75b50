from quiz_shuffle_a_app import shuffled_questions

QUESTIONS = ["capital of France", "2 + 2", "largest planet"]


def test_shuffle_changes_question_order():
    out = shuffled_questions(QUESTIONS)
    assert sorted(out) == sorted(QUESTIONS)
    assert out != QUESTIONS
