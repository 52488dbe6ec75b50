def promote(user, role="admin"):
    roles = list(user["roles"])
    if role not in roles:
        roles.append(role)
    return {**user, "roles": roles}
