def normalize_tags(tags):
    return ",".join(dict.fromkeys(t.strip().lower() for t in tags if t.strip()))
