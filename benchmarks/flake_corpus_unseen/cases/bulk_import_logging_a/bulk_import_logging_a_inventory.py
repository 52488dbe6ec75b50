"""Stock reservations."""
import logging

log = logging.getLogger("bulk_import_logging_a.inventory")


def reserve(stock, sku, qty):
    available = stock.get(sku, 0)
    if qty > available:
        log.warning("oversell sku=%s wanted=%d available=%d", sku, qty, available)
        return False
    stock[sku] = available - qty
    return True


def bulk_import(stock, rows):
    for sku, qty in rows:
        if qty < 0:
            log.warning("negative quantity for %s ignored", sku)
            continue
        stock[sku] = stock.get(sku, 0) + qty
    return stock
