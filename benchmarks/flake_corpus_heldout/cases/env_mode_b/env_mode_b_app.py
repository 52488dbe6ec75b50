import os


def current_mode():
    return os.environ.get("BILLING_MODE", "production")


def log_level():
    return "DEBUG" if current_mode() == "debug" else "WARNING"
