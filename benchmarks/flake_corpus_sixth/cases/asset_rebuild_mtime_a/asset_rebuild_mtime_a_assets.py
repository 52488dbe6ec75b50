"""Incremental asset pipeline: minify a stylesheet only when it changed."""
import hashlib
import pathlib
import re


def minify(css):
    return re.sub(r"\s+", " ", re.sub(r"/\*.*?\*/", "", css, flags=re.S)).strip()


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def needs_rebuild(src, out):
    if not out.exists():
        return True
    return int(src.stat().st_mtime) > int(out.stat().st_mtime)  # whole seconds, as in the build manifest


def build(src, out):
    out.write_text(minify(src.read_text()))
