"""Run-length encoding of letters: "aaab" <-> "3a1b"."""

from tests.data.codec_impl import *  # noqa: F401,F403
from tests.data.codec_impl import decode, encode, encode_bytes  # noqa: F401
