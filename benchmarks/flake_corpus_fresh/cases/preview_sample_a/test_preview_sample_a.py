from preview_sample_a_quality import preview, validate

ROWS = [{"email": f"user{i}@example.com" if i % 5 > 1 else f"user{i}.example.com"} for i in range(50)]


def test_preview_shows_an_invalid_row():
    shown = preview(ROWS)
    assert len(shown) == 5
    assert any(not validate(r) for r in shown)
