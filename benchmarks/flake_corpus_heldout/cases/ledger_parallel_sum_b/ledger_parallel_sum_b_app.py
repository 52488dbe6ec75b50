def chunk_total(values):
    acc = 0
    for i in range(120000):
        acc ^= i
    return sum(values)
