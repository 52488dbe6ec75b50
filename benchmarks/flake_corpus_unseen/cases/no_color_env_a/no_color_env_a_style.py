"""ANSI styling for the deploy CLI."""
import os

CODES = {"green": 32, "red": 31, "yellow": 33}


def colors_enabled():
    return not os.environ.get("NO_COLOR")


def style(text, color):
    if not colors_enabled():
        return text
    return f"\x1b[{CODES[color]}m{text}\x1b[0m"


def status_badge(ok):
    return style("PASS", "green") if ok else style("FAIL", "red")
