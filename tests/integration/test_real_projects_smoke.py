"""benchmarks/real_projects.py --smoke: more-itertools from the package index, three heads judged."""

from __future__ import annotations

from tests.benchsmoke import run_smoke


def test_real_projects_smoke() -> None:
    out = run_smoke("real_projects.py", timeout=1200)
    assert "== more-itertools 10.5.0" in out
    for head in ("honest", "wrong-bug", "wrong-oracle"):
        assert f"  {head}" in out
    assert "every verdict as expected" in out
