import sys

import pytest

import bignum_digit_limit_b_mathsvc as svc


def test_factorial_digit_count():
    assert svc.digit_count_of_factorial(500) == 1135


def test_hardening_rejects_huge_numbers():
    old = sys.get_int_max_str_digits()
    svc.harden()
    try:
        with pytest.raises(ValueError):
            svc.parse_amount("9" * 1000)
    finally:
        sys.set_int_max_str_digits(old)
