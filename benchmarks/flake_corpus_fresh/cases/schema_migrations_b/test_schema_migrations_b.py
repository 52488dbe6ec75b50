from schema_migrations_b_migrate import MIGRATIONS, Database, migrate


def test_fresh_database_gets_all_migrations():
    db = Database()
    assert migrate(db) == MIGRATIONS
    assert db.schema == ["create_users", "add_email", "index_email"]


def test_migrate_is_idempotent():
    db = Database()
    migrate(db)
    assert migrate(db) == []
