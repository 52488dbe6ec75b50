from report.fmt import percent

__all__ = ["percent"]
