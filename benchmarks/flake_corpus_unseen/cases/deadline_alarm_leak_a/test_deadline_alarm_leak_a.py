import pytest

from deadline_alarm_leak_a_catalog import export_catalog
from deadline_alarm_leak_a_deadline import run_with_deadline


def test_catalog_export_completes():
    rows = export_catalog()
    assert len(rows) == 1200
    assert rows[0] == {"sku": "P0000", "price": 100}


def test_deadline_propagates_errors():
    with pytest.raises(ValueError):
        run_with_deadline(lambda: int("not-a-number"), 0.25)
