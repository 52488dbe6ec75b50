"""Password-age report for the security audit."""


def last_change_days(user, shadow_path="/etc/shadow"):
    with open(shadow_path) as fh:
        for line in fh:
            fields = line.rstrip("\n").split(":")
            if fields[0] == user:
                return int(fields[2]) if fields[2] else None
    raise KeyError(user)
