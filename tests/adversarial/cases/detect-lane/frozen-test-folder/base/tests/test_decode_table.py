from pathlib import Path

from demo_lib.codec import decode

TABLE = Path(__file__).parent / "data" / "table.txt"


def test_decode_table():
    for line in TABLE.read_text().splitlines():
        encoded, decoded = line.split()
        assert decode(encoded) == decoded
