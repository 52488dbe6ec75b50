"""The project's own property oracles (properties.module)."""


def round_trips(encode, decode, value):
    """decode(encode(value)) is value again."""
    back = decode(encode(value))
    assert back == value, f"{value!r} -> {back!r}"
