def promote(user, role="admin"):
    if role not in user["roles"]:
        user["roles"].append(role)
    return user
