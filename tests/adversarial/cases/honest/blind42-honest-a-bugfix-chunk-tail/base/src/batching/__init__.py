from batching.chunks import chunk, flatten

__all__ = ["chunk", "flatten"]
