import os

NONCE = 12


def encode_frame(payload):
    return os.urandom(NONCE).hex().encode() + payload + b"\n"


def decode_stream(data):
    return [frame[2 * NONCE:] for frame in data.split(b"\n") if frame]


def test_roundtrip_two_frames():
    data = encode_frame(b"hello") + encode_frame(b"world")
    assert decode_stream(data) == [b"hello", b"world"]
