from textfit.fit import pad, truncate

__all__ = ["pad", "truncate"]
