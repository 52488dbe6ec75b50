import pytest

import cli_subcommand_registry_a_cli as cli


@pytest.fixture
def registry(monkeypatch):
    monkeypatch.setattr(cli, "COMMANDS", dict(cli.COMMANDS))
    return cli.COMMANDS


def test_version_command():
    assert cli.main(["version"]) == "ops 2.3.1"


def test_plugin_subcommand_runs(registry):
    @cli.command("rotate-logs", help="rotate and compress logs")
    def rotate_logs():
        return "rotated 3 files"

    assert cli.main(["rotate-logs"]) == "rotated 3 files"
