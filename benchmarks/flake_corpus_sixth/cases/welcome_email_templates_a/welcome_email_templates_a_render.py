"""Plain-text transactional e-mails (string.Template files shipped next to the code)."""
import os
import pathlib
import string

TEMPLATE_DIR = pathlib.Path(__file__).resolve().parent / "welcome_email_templates_a_templates"


def render(name, **ctx):
    with open(os.path.join(TEMPLATE_DIR, name + ".txt"), encoding="utf-8") as fh:
        return string.Template(fh.read()).substitute(ctx)
