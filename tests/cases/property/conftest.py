# Case data, not lanegate's own tests: the target library and the oracle-check cases are never collected.
collect_ignore = ["target", "oracle"]
