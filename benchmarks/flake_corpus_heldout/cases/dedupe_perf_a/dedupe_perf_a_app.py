def dedupe(records, stats=None):
    seen = set()
    out = []
    for r in records:
        key = (r["email"].lower(), r["country"])
        if stats is not None:
            stats["lookups"] = stats.get("lookups", 0) + 1
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out
