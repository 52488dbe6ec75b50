"""Dashboard charts: series get random palette colours so that dashboards don't all look alike."""
import random

PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf"]


def assign_colors(series_names, rng=random):
    colors = rng.choices(PALETTE, k=len(series_names))
    return dict(zip(series_names, colors))
