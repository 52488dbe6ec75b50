# coding: no-such-codec


def test_y():
    try:
        pass
    except OSError:
        pass
