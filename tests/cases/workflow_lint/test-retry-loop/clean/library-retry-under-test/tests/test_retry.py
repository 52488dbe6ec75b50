"""Tests of the library's own retry: the retry is the code under test, or a stand-in handed to it."""

from unittest import mock

import pytest

from client import Connection, ConnectionError, Retry


class TestRetry:
    def setup_method(self):
        self.attempts = 0

    def _fail_twice(self):
        self.attempts += 1
        if self.attempts < 3:
            raise ConnectionError("down")
        return "ok"

    def test_call_with_retry_succeeds_after_failures(self):
        retry = Retry(retries=3)
        assert retry.call_with_retry(self._fail_twice, lambda error: None) == "ok"
        assert self.attempts == 3

    def test_command_is_retried_by_the_connection(self):
        conn = mock.Mock(spec=Connection)
        failures = []

        def fake_call_with_retry(do, fail, is_retryable=None):
            for attempt in range(3):
                try:
                    return do()
                except ConnectionError as error:
                    if attempt == 2:
                        raise
                    fail(error)

        conn.retry.call_with_retry = fake_call_with_retry
        conn.send_command.side_effect = [ConnectionError(), "PONG"]
        assert Connection.ping_with(conn, on_fail=failures.append) == "PONG"
        assert len(failures) == 1


def test_retry_helper_gives_up():
    def always_down():
        raise ConnectionError("down")

    def retrying(func, tries):
        while True:
            try:
                return func()
            except ConnectionError:
                tries -= 1
                if not tries:
                    raise

    with mock.patch.object(Retry, "run", side_effect=retrying):
        with pytest.raises(ConnectionError):
            Retry(retries=2).run(always_down, 2)
