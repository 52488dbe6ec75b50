from pathlib import Path

from demo_lib.codec import encode

GOLDEN = Path(__file__).parent / "golden"


def test_encode_matches_golden():
    cases = (GOLDEN / "cases.txt").read_text().split()
    expected = (GOLDEN / "expected.txt").read_text().split()
    assert [encode(c) for c in cases] == expected
