from sessions.expiry import is_expired, remaining

__all__ = ["is_expired", "remaining"]
