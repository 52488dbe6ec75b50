from tagging.tags import normalize_tag, tag_set

__all__ = ["normalize_tag", "tag_set"]
