"""A tiny run-length codec: the library the lanegate demo gates."""
