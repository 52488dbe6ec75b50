"""Tag cloud for the blog sidebar."""
import collections


def top_tags(posts, n):
    counts = collections.Counter(t for p in posts for t in p["tags"])
    return sorted(counts, key=lambda t: (-counts[t], t))[:n]
