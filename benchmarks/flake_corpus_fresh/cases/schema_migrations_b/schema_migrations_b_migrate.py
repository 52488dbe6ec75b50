MIGRATIONS = ["0001_create_users", "0002_add_email", "0003_index_email"]
_applied = []


class Database:
    def __init__(self):
        self.applied = []
        self.schema = []


def migrate(db):
    ran = []
    for name in MIGRATIONS:
        if name in db.applied:
            continue
        db.schema.append(name.split("_", 1)[1])
        db.applied.append(name)
        ran.append(name)
    return ran
