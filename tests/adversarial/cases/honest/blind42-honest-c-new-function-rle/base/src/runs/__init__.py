from runs.runs import longest_run

__all__ = ["longest_run"]
