import singleton_conn_b_db as db


def test_insert_user_and_count():
    conn = db.get_conn()
    conn.execute("insert into users (name) values (?)", ("ada",))
    (count,) = conn.execute("select count(*) from users where name = 'ada'").fetchone()
    assert count >= 1


def test_shutdown_closes_connection():
    db.get_conn()
    db.close()
