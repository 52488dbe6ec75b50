from demo_lib.codec import encode


def test_encode_smoke():
    assert encode("aab") == "2a1b"
