from stats.central import mean, median

__all__ = ["mean", "median"]
