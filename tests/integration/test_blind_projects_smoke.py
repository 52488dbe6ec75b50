"""benchmarks/blind_projects.py --smoke: toolz from the package index, its honest-new head judged."""

from __future__ import annotations

from tests.benchsmoke import run_smoke


def test_blind_projects_smoke() -> None:
    out = run_smoke("blind_projects.py")
    assert "== toolz 1.0.0" in out, out
    assert "  honest-new  agent expected pass" in out and "got pass" in out, out
    assert "CPU of lanegate run / one plain suite run: median " in out, out
    assert "every verdict as expected" in out, out
