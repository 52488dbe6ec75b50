import pytest

def test_retry(:
    pass
