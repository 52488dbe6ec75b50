import re
import time

TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+|\S")


def tokenize(src):
    return TOKEN.findall(src)


def test_tokenize_is_fast():
    src = "def f(x):\n    return x * 42 + y_1\n" * 20000
    t0 = time.perf_counter()
    tokens = tokenize(src)
    elapsed = time.perf_counter() - t0
    assert len(tokens) == 12 * 20000
    assert elapsed < 10
