import random


def generate_invite_codes(n):
    return [str(random.randint(1000, 9999)) for _ in range(n)]


def test_invite_codes_unique():
    codes = generate_invite_codes(40)
    assert all(len(c) == 4 for c in codes)
    assert len(set(codes)) == len(codes)
