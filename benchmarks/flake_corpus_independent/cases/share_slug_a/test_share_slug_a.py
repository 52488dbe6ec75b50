import re
import secrets


def make_share_slug(title):
    base = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return f"{base}-{secrets.token_urlsafe(3)}"


def parse_share_slug(slug):
    base, _, token = slug.rpartition("-")
    return base, token


def test_slug_roundtrip():
    slug = make_share_slug("Quarterly Report")
    base, token = parse_share_slug(slug)
    assert base == "quarterly-report"
    assert len(token) == 4
