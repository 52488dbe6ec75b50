"""Parse and format "host:port" strings."""

from __future__ import annotations


def parse_port(text: str) -> int:
    """A TCP port number, 1..65535, from its decimal text."""
    if not text.isdigit():
        raise ValueError(f"port is not a number: {text!r}")
    port = int(text)
    if port < 1 or port > 65535:
        raise ValueError(f"port out of range: {port}")
    return port


def parse_hostport(text: str, default_port: int = 80) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep:
        return text, default_port
    if not host:
        raise ValueError(f"missing host: {text!r}")
    return host, parse_port(port)


def format_hostport(host: str, port: int) -> str:
    return f"{host}:{port}"
