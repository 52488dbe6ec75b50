from demo_lib.codec import encode

# A results log shared by the tests of this module: passes once, fails when the test runs again in
# the same process or after its neighbour (a state leak the agent did not notice).
_encoded: list[str] = []


def test_encode_logs_one_result():
    _encoded.append(encode("aab"))
    assert _encoded == ["2a1b"]


def test_encode_logs_in_order():
    _encoded.append(encode("bcc"))
    assert _encoded[-1] == "1b2c"
