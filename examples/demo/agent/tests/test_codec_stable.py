from demo_lib.codec import encode


def test_encode_is_stable():
    assert encode("aaab") == encode("aaab")
