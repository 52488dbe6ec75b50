"""Form widgets rendered to HTML; CSS classes come from the theme, the field state and the caller."""
from html import escape

THEME = {"input": {"form-control"}, "select": {"form-select"}}


def css_classes(kind, *, invalid=False, extra=()):
    classes = set(THEME.get(kind, ())) | set(extra)
    if invalid:
        classes.add("is-invalid")
    return " ".join(classes)


def render_input(name, value="", *, type="text", invalid=False, extra=()):
    return (f'<input type="{type}" name="{escape(name)}" value="{escape(value)}" '
            f'class="{css_classes("input", invalid=invalid, extra=extra)}">')
