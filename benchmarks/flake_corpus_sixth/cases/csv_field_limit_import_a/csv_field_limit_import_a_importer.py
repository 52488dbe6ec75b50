"""Product CSV import; uploads from the public form are parsed with a small field limit."""
import csv
import io


def parse(text):
    return list(csv.DictReader(io.StringIO(text)))


def parse_untrusted(text, limit=1024):
    old = csv.field_size_limit(limit)
    try:
        return parse(text)
    finally:
        csv.field_size_limit(old)
