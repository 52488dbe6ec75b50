from netaddr.hostport import format_hostport, parse_hostport, parse_port

__all__ = ["format_hostport", "parse_hostport", "parse_port"]
