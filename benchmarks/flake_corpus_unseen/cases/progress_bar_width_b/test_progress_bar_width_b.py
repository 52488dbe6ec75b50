from progress_bar_width_b_progress import progress_line


def test_progress_line_fits_80_columns():
    line = progress_line(37, 120, width=80)
    assert len(line) == 80
    assert line.startswith("migrating 37/120 [###")
    assert line.endswith("]  30%")
