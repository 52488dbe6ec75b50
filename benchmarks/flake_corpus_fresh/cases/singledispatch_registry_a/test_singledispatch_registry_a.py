import datetime
import decimal

import pytest

from singledispatch_registry_a_serialize import dumps, to_jsonable


def test_datetime_is_rejected_without_adapter():
    assert dumps({"total": decimal.Decimal("9.50")}) == '{"total": "9.50"}'
    with pytest.raises(TypeError):
        dumps({"at": datetime.datetime(2024, 1, 1, 12, 0)})


def test_datetime_adapter_serializes_iso():
    to_jsonable.register(datetime.datetime, lambda d: d.isoformat())
    default = to_jsonable
    out = dumps({"at": datetime.datetime(2024, 1, 1, 12, 0)}, default=default)
    assert out == '{"at": "2024-01-01T12:00:00"}'
