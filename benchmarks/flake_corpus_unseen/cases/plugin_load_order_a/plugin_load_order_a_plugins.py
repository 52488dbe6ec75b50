"""Plugin start-up order from declared dependencies (Kahn's algorithm)."""
import heapq


def load_order(requires):
    pending = {name: set(deps) for name, deps in requires.items()}
    ready = sorted(n for n, deps in pending.items() if not deps)
    order = []
    while ready:
        name = heapq.heappop(ready)
        order.append(name)
        for other, deps in pending.items():
            if name in deps:
                deps.discard(name)
                if not deps:
                    heapq.heappush(ready, other)
    if len(order) != len(pending):
        raise ValueError("dependency cycle")
    return order
