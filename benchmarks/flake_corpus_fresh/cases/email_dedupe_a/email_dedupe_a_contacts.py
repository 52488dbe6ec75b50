def dedupe(emails):
    kept = {}
    for email in emails:
        kept.setdefault(email.lower(), email)
    return sorted(kept.values(), key=str.lower)
