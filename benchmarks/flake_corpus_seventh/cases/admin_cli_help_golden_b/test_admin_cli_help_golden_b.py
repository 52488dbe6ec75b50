import pathlib

import admin_cli_help_golden_b_admin as admin

GOLDEN = pathlib.Path(__file__).with_name("admin_cli_help_golden_b_help.txt")


def test_help_matches_golden_file(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")  # argparse wraps at the terminal width
    assert admin.build_parser().format_help() == GOLDEN.read_text()
