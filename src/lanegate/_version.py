"""The single source of lanegate's version."""

__version__ = "1.0.0"
