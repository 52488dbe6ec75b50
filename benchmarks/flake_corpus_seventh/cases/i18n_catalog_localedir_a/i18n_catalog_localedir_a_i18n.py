"""Tiny gettext-like translator: one JSON catalogue per language; unknown messages fall back to English."""
import json
import os

LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "i18n_catalog_localedir_a_locale")


def translator(lang):
    try:
        with open(os.path.join(LOCALE_DIR, f"{lang}.json"), encoding="utf-8") as fh:
            catalog = json.load(fh)
    except FileNotFoundError:
        catalog = {}  # like gettext.translation(..., fallback=True)
    return lambda msg: catalog.get(msg, msg)
