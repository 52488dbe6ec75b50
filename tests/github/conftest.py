"""A recorded GitHub API on 127.0.0.1 for every test here, and client settings with retries off."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lanegate.github.client import ClientSettings
from tests.github.server import WRITE_TOKEN, RecordedGitHub


@pytest.fixture
def github_api() -> Iterator[RecordedGitHub]:
    server = RecordedGitHub().start()
    try:
        yield server
    finally:
        server.stop()


def quiet_settings(server: RecordedGitHub, token: str = WRITE_TOKEN) -> ClientSettings:
    """Production code with PyGithub's retry and delays turned off, pointed at the local server."""
    return ClientSettings(
        token=token,
        api_url=server.base_url,
        retries=False,
        seconds_between_requests=None,
        seconds_between_writes=None,
        timeout=5,
    )
