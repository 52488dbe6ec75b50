"""Admin list filters turned into parameterised SQL."""


def status_filter(statuses):
    wanted = list(dict.fromkeys(statuses))
    placeholders = ", ".join("?" for _ in wanted)
    return f"SELECT id, email FROM accounts WHERE status IN ({placeholders}) ORDER BY id", wanted
