import logging

log = logging.getLogger("billing")


def charge(customer, cents):
    log.info("charged %s %d", customer, cents)
    return cents


def test_quiet_billing_logs(caplog):
    caplog.set_level(logging.ERROR, logger="billing")
    charge("acme", 100)
    assert "charged" not in caplog.text


def test_charge_is_logged(caplog):
    caplog.set_level(logging.INFO, logger="billing")
    charge("acme", 250)
    assert "charged acme 250" in caplog.text
