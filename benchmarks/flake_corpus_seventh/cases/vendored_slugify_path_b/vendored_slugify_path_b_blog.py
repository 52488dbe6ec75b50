"""Blog URLs. Third-party helpers live in vendored_slugify_path_b_vendor/ and are imported lazily."""
import os
import sys

VENDOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vendored_slugify_path_b_vendor")


def enable_vendored():
    if VENDOR not in sys.path:
        sys.path.insert(0, VENDOR)


def post_url(title, year):
    from vendored_slugify_path_b_slugify import slugify
    return f"/{year}/{slugify(title)}/"


