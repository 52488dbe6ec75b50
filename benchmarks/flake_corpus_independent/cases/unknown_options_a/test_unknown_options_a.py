import pytest

ALLOWED = {"color", "width", "height"}


def validate(opts):
    unknown = set(opts) - ALLOWED
    if unknown:
        raise ValueError("unknown options: " + ", ".join(sorted(unknown)))


def test_unknown_options_message():
    with pytest.raises(ValueError) as exc:
        validate({"colour": "red", "width": 3, "verbose": True})
    assert str(exc.value) == "unknown options: colour, verbose"
