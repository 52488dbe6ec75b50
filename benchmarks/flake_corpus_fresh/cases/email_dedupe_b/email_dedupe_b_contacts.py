def dedupe(emails):
    kept = {}
    for email in set(emails):
        kept.setdefault(email.lower(), email)
    return sorted(kept.values(), key=str.lower)
