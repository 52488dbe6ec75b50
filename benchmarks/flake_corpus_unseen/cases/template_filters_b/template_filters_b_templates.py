"""A very small template engine: {{ name }} and {{ name|filter }}."""
import re

FILTERS = {"upper": str.upper}
_TOKEN = re.compile(r"\{\{\s*(\w+)(?:\|(\w+))?\s*\}\}")


def register_filter(name):
    def deco(fn):
        FILTERS[name] = fn
        return fn
    return deco


def render(template, **context):
    def sub(m):
        value = context[m.group(1)]
        if m.group(2):
            value = FILTERS[m.group(2)](value)
        return str(value)
    return _TOKEN.sub(sub, template)
