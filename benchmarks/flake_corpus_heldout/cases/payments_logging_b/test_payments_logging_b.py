import logging

import pytest

from payments_logging_b_app import charge, configure_quiet, log


@pytest.fixture
def restore_payments_level():
    old = log.level
    yield
    log.setLevel(old)


def test_charge_logs_amount(caplog):
    caplog.set_level(logging.INFO, logger="payments")
    charge(5)
    assert "charging 5" in caplog.text


def test_quiet_mode(caplog, restore_payments_level):
    configure_quiet()
    charge(7)
    assert "charging 7" not in caplog.text
