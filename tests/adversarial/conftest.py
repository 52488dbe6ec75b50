"""The hostile cases are data for lanegate run, never collected as lanegate's own tests."""

collect_ignore = ["cases"]
