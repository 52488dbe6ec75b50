"""A lane's test process exits as soon as pytest begins to unconfigure, without the teardown.

By then the process has written everything a lane reads: its record (at `pytest_sessionfinish`)
and its output log (the terminal summary, written in the same hook). What would follow reads
nothing the lane keeps: every plugin's `pytest_unconfigure`, pytest's clean-ups (the
unraisable-exception check alone runs five full garbage collections), `atexit` handlers, the wait
for threads a test left running and the interpreter's teardown. That cost 0.05-0.1 CPU s a process
here, and the lanes start many short test processes: the flake lane three or more replays, the
property lane two selected runs on its fixed cost's critical path.

`exit_after_session` arms the exit for one process. It exits with the session's status exactly as
pytest would return it (read when unconfiguring, after every `pytest_sessionfinish` hook had its
say), and only for a session that ended normally (tests passed, failed, or none collected). An
interrupted session, pytest's internal error or a usage error takes pytest's usual path, whose
messages are what a user then reads. A test that takes the hook off only gets the slow exit back.
"""

from __future__ import annotations

import os
import sys

import pytest
from pytest import ExitCode

PLUGIN_NAME = "lanegate-quick-exit"
# a session that ran to its end (pytest's exit codes are ints: 0, 1, 5)
NORMAL_ENDS = frozenset({ExitCode.OK, ExitCode.TESTS_FAILED, ExitCode.NO_TESTS_COLLECTED})


class _ExitAfterSession:
    """Keeps the finished session, and exits when pytest starts to unconfigure."""

    def __init__(self) -> None:
        self.session: pytest.Session | None = None

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.session = session

    @pytest.hookimpl(tryfirst=True)
    def pytest_unconfigure(self) -> None:
        if self.session is None:  # configured, but no session ran here (a fork server)
            return
        status = int(self.session.exitstatus)
        if status not in NORMAL_ENDS:
            return
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            if stream is not None:
                try:
                    stream.flush()
                except (OSError, ValueError):  # closed, or a pipe nobody reads
                    pass
        os._exit(status)


def exit_after_session(pluginmanager: pytest.PytestPluginManager) -> None:
    """Arm the quick exit for this process (once, whichever lane plugin asks first)."""
    if pluginmanager.get_plugin(PLUGIN_NAME) is None:
        pluginmanager.register(_ExitAfterSession(), PLUGIN_NAME)
