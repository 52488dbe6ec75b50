import sys


def depth(node):
    return 1 + max((depth(child) for child in node.get("children", [])), default=0)


def nested(levels):
    node = {"name": "leaf"}
    for i in range(levels - 1):
        node = {"name": f"n{i}", "children": [node]}
    return node


def guard_stack(limit):
    """Protect request workers against malicious deeply nested payloads. Returns the old limit."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    return old
