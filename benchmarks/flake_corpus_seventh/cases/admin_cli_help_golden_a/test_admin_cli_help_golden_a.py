import pathlib

import admin_cli_help_golden_a_admin as admin

GOLDEN = pathlib.Path(__file__).with_name("admin_cli_help_golden_a_help.txt")


def test_help_matches_golden_file(monkeypatch):
    assert admin.build_parser().format_help() == GOLDEN.read_text()
