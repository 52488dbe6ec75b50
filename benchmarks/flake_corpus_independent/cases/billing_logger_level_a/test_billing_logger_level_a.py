import logging

log = logging.getLogger("billing")


def charge(customer, cents):
    log.info("charged %s %d", customer, cents)
    return cents


def test_quiet_billing_logs(caplog):
    logging.getLogger("billing").setLevel(logging.ERROR)
    charge("acme", 100)
    assert "charged" not in caplog.text


def test_charge_is_logged(caplog):
    with caplog.at_level(logging.INFO):
        charge("acme", 250)
    assert "charged acme 250" in caplog.text
