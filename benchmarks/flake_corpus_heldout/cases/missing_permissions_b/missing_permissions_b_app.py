class PermissionDenied(Exception):
    pass


def require(granted, needed):
    missing = set(needed) - set(granted)
    if missing:
        raise PermissionDenied("missing permissions: " + ", ".join(sorted(missing)))
