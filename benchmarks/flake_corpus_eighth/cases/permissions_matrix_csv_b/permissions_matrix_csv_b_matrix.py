"""Role/permission matrix export for the compliance review."""


def matrix(grants):
    roles = {}
    for role, perm in grants:
        roles.setdefault(role, set()).add(perm)
    return roles


def to_csv(roles):
    return "\n".join(f"{role},{'|'.join(perms)}" for role, perms in sorted(roles.items()))
