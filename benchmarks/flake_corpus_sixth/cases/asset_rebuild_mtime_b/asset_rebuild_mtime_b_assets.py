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
    stamp = out.with_suffix(".src-sha256")
    return not stamp.exists() or stamp.read_text() != _digest(src)


def build(src, out):
    out.write_text(minify(src.read_text()))
    out.with_suffix(".src-sha256").write_text(_digest(src))
