from durations.parse import format_duration, parse_duration, parse_or_default

__all__ = ["format_duration", "parse_duration", "parse_or_default"]
