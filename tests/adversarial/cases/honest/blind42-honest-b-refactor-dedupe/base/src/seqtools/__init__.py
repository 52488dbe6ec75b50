from seqtools.unique import dedupe, duplicates

__all__ = ["dedupe", "duplicates"]
