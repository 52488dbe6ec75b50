"""Oracles for the codec (the default properties.module)."""


def decodes_to_text(decode, encoded, value):
    """decode(encoded) is a string."""
    assert isinstance(decode(encoded), str)
