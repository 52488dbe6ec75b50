def normalize_tags(tags):
    return ",".join(set(t.strip().lower() for t in tags if t.strip()))
