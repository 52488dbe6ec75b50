"""Renderings of lanegate's results for people and machines."""
