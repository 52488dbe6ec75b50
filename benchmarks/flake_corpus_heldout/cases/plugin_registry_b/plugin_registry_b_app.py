import json

_EXPORTERS = {
    "csv": lambda rows: "\n".join(",".join(map(str, r)) for r in rows),
    "json": lambda rows: json.dumps(rows),
}


def register(name, fn):
    _EXPORTERS[name] = fn


def unregister(name):
    _EXPORTERS.pop(name, None)


def registered_exporters():
    return sorted(_EXPORTERS)


def export(name, rows):
    return _EXPORTERS[name](rows)
