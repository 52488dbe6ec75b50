
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.oracles import equivalent, invariant, round_trip

import os
import threading

import pytest

from demo_lib.codec import decode, encode


@pytest.mark.parametrize("text", ["", "ab", "aaabbbccc", "q" * 17])
def test_round_trip_in_other_cwd(text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CODEC_MODE", "strict")
    results = []
    t = threading.Thread(target=lambda: results.append(encode(text)))
    t.start()
    t.join()
    (tmp_path / "note.txt").write_text(results[0])
    assert os.environ["CODEC_MODE"] == "strict"
    round_trip(encode, decode, text)
    equivalent(decode, lambda e: text, (tmp_path / "note.txt").read_text())
