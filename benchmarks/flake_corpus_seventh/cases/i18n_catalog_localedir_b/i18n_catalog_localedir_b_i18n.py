"""Tiny gettext-like translator: one JSON catalogue per language; unknown messages fall back to English."""
import json
import os

LOCALE_DIR = "i18n_catalog_localedir_b_locale"


def translator(lang):
    try:
        with open(os.path.join(LOCALE_DIR, f"{lang}.json"), encoding="utf-8") as fh:
            catalog = json.load(fh)
    except FileNotFoundError:
        catalog = {}  # like gettext.translation(..., fallback=True)
    return lambda msg: catalog.get(msg, msg)
