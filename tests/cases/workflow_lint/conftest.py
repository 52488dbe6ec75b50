"""The folders below are example repositories for `lanegate lint`, not tests: pytest never collects
them (and never imports their conftest.py files), and lint's discovery skips them for the same reason."""

collect_ignore_glob = ["*"]
