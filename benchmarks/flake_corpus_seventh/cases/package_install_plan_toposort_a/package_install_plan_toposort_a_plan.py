"""Install plan for plugin packages: dependencies before dependents (Kahn's algorithm)."""


def install_plan(requires):
    pending = {name: set(deps) for name, deps in requires.items()}
    ready = {name for name, deps in pending.items() if not deps}
    plan = []
    while ready:
        name = ready.pop()
        plan.append(name)
        for other, deps in pending.items():
            if name in deps:
                deps.discard(name)
                if not deps:
                    ready.add(other)
    if len(plan) != len(pending):
        raise ValueError("dependency cycle")
    return plan
