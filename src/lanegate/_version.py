"""The single source of lanegate's version."""

__version__ = "0.1.0"
