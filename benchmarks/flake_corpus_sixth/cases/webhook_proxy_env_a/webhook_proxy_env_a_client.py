"""Outgoing webhook delivery: session settings honour the standard proxy variables."""
import os


def session_config(url):
    proxy = os.environ.get("HTTPS_PROXY") or os.environ.get("https_proxy")
    return {"url": url, "proxy": proxy, "verify": True, "timeout": 10}
