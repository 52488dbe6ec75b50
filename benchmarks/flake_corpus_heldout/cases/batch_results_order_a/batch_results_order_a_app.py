def score(x):
    acc = 0
    for i in range(120000):
        acc ^= i
    return x * x
