"""Accept-Language negotiation."""

SUPPORTED = {"de", "en", "fr", "es", "it", "qps-ploc"}  # qps-ploc: pseudo-locale for i18n QA
DEFAULT = "en"


def parse_accept(header):
    tags = []
    for part in header.split(","):
        tag = part.split(";")[0].strip().lower()
        if tag:
            tags.append(tag)
    return tags


def negotiate(header):
    for tag in parse_accept(header):
        if tag in SUPPORTED:
            return tag
        if tag.split("-")[0] in SUPPORTED:
            return tag.split("-")[0]
    return DEFAULT
