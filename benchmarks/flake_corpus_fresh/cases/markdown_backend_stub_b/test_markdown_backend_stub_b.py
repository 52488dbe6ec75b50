import sys

from markdown_backend_stub_b_render import render_markdown


def test_headings_rendered_by_fast_backend():
    assert render_markdown("# Release notes\nfixed bugs") == "<h1>Release notes</h1><p>fixed bugs</p>"


def test_fallback_when_backend_missing(monkeypatch):
    sys.modules["markdown_backend_stub_b_fastmd"] = None
    assert render_markdown("# x") == "<pre># x</pre>"
