import logging

from payments_logging_a_app import charge, configure_quiet


def test_charge_logs_amount(caplog):
    caplog.set_level(logging.INFO)
    charge(5)
    assert "charging 5" in caplog.text


def test_quiet_mode(caplog):
    configure_quiet()
    charge(7)
    assert "charging 7" not in caplog.text
