import json


class User:
    def __init__(self, name, roles):
        self.name = name
        self.roles = set(roles)

    def to_json(self):
        return json.dumps({"name": self.name, "roles": sorted(self.roles)}, indent=2)
