import survey_schema_bootstrap_b_db as db_mod


def test_answer_text_is_trimmed():
    assert " yes ".strip() == "yes"


def test_answers_are_recorded():
    db = db_mod.connect()
    db_mod.bootstrap(db)
    db_mod.record(db, "r1", 1, "yes")
    db_mod.record(db, "r1", 2, "no")
    assert db_mod.count(db) == 2
