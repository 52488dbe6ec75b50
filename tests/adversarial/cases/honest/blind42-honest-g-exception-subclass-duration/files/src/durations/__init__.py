from durations.parse import UnknownUnit, format_duration, parse_duration, parse_or_default

__all__ = ["UnknownUnit", "format_duration", "parse_duration", "parse_or_default"]
