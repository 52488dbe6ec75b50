"""Combinatorics micro-service; harden() applies the input limits used in production."""
import math
import sys


def digit_count_of_factorial(n):
    return len(str(math.factorial(n)))


def harden(max_digits=640):
    sys.set_int_max_str_digits(max_digits)


def parse_amount(text):
    return int(text)
