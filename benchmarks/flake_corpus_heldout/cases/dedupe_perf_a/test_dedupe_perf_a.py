from dedupe_perf_a_app import dedupe


def test_dedupe_is_fast():
    records = [{"email": f"User{i % 5000}@x.org", "country": "NZ"} for i in range(60000)]
    stats = {}
    out = dedupe(records, stats)
    assert len(out) == 5000
    assert stats["lookups"] == len(records)
