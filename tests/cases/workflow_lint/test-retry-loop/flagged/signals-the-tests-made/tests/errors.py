"""Exceptions of the tests' own: raised by their checks."""


class MismatchNotFound(AssertionError):
    """Named like a lookup's empty result; raised when a value is wrong."""
