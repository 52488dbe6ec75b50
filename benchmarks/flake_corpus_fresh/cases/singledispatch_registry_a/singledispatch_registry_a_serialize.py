import datetime
import decimal
import functools
import json


@functools.singledispatch
def to_jsonable(obj):
    raise TypeError(f"cannot serialize {type(obj).__name__}")


@to_jsonable.register
def _(obj: decimal.Decimal):
    return str(obj)


def dumps(data, default=to_jsonable):
    return json.dumps(data, default=default, sort_keys=True)
