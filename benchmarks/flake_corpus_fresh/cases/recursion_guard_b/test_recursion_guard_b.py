import sys

from recursion_guard_b_tree import depth, guard_stack, nested


def test_depth_of_deeply_nested_config():
    assert depth(nested(300)) == 300


def test_stack_guard_limits_recursion():
    old = guard_stack(260)
    assert sys.getrecursionlimit() == 260
    assert depth(nested(5)) == 5
