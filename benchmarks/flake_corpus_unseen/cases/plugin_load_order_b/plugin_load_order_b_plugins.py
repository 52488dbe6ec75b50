"""Plugin start-up order from declared dependencies (Kahn's algorithm)."""


def load_order(requires):
    pending = {name: set(deps) for name, deps in requires.items()}
    ready = {n for n, deps in pending.items() if not deps}
    order = []
    while ready:
        name = ready.pop()
        order.append(name)
        for other, deps in pending.items():
            if name in deps:
                deps.discard(name)
                if not deps:
                    ready.add(other)
    if len(order) != len(pending):
        raise ValueError("dependency cycle")
    return order
