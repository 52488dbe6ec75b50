import time

from dedupe_perf_b_app import dedupe


def test_dedupe_is_fast():
    records = [{"email": f"User{i % 5000}@x.org", "country": "NZ"} for i in range(60000)]
    start = time.perf_counter()
    out = dedupe(records)
    elapsed = time.perf_counter() - start
    assert len(out) == 5000
    assert elapsed < 0.045
