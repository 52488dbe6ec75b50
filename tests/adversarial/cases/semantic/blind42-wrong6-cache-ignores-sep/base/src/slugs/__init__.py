from slugs.slug import slugify

__all__ = ["slugify"]
