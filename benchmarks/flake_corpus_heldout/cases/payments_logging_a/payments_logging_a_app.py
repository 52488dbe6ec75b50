import logging

log = logging.getLogger("payments")


def charge(amount):
    log.info("charging %s", amount)
    return {"status": "ok", "amount": amount}


def configure_quiet():
    log.setLevel(logging.ERROR)
