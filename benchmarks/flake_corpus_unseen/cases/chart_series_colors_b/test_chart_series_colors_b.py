from chart_series_colors_b_charts import PALETTE, assign_colors


def test_series_get_distinct_colors():
    colors = assign_colors(["p50 latency", "p95 latency", "error rate"])
    assert set(colors.values()) <= set(PALETTE)
    assert len(set(colors.values())) == 3, colors
