import string

_cache = {}
stats = {"hits": 0, "misses": 0}


def render(template_name, source, **context):
    tpl = _cache.get(template_name)
    if tpl is None:
        stats["misses"] += 1
        tpl = _cache[template_name] = string.Template(source)
    else:
        stats["hits"] += 1
    return tpl.substitute(**context)


def reset():
    _cache.clear()
    stats.update(hits=0, misses=0)
