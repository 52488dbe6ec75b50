"""Hand-written mutants of target/ledgermath.py with the status the property lane must give each.

Each entry: (name, find, replace, expected status, expected kill kind). `find` occurs exactly once in
ledgermath.py; statuses are killed / survived / timeout / no_tests; equivalent mutants must survive.
"""

SLOW_FEE = '(__import__("time").sleep(5), amount * bps // 10000)[1]'

HAND_MUTANTS = [
    ("encode-separator", '",".join(str(a)', '";".join(str(a)', "killed", "property"),
    ("decode-empty-test", 'if text == "":', 'if text != "":', "killed", "property"),
    ("decode-empty-value", "return []", "return [0]", "killed", "property"),
    ("clamp-lo-boundary-equivalent", "if x < lo:", "if x <= lo:", "survived", None),
    ("clamp-hi-boundary-equivalent", "if x > hi:", "if x >= hi:", "survived", None),
    ("clamp-hi-returns-lo-weak-property", "return hi", "return lo", "survived", None),
    ("clamp-off-by-one", "    return x\n", "    return x + 1\n", "killed", "property"),
    ("normalize-no-lower-weak-property", ".lower()", "", "survived", None),
    ("normalize-double-space-weak-property", '" ".join(words)', '"  ".join(words)', "survived", None),
    ("normalize-no-strip-equivalent", "name.strip()", "name", "survived", None),
    ("total-start-one", "total = 0", "total = 1", "killed", "property"),
    ("total-append-x", "out.append(total)", "out.append(x)", "killed", "property"),
    ("total-assign", "total += x", "total = x", "killed", "property"),
    ("split-boundary", "if i < extra", "if i <= extra", "killed", "property"),
    ("split-divisor", "divmod(total, parts)", "divmod(total, parts + 1)", "killed", "property"),
    ("split-flipped-equivalent", "if i < extra", "if extra > i", "survived", None),
    ("fee-scale-unit-kill", "// 10000", "// 1000", "killed", "unit"),
    ("fee-true-division-survives", "// 10000", "/ 10000", "survived", None),
    ("fee-commuted-equivalent", "amount * bps", "bps * amount", "survived", None),
    ("count-endless", "i += 1", "i += 0", "timeout", None),
    ("count-past-end", "while i < n:", "while i <= n:", "killed", "property"),
    ("round-negated-unit-kill", "amount % 100 == 0", "amount % 100 != 0", "killed", "unit"),
    ("unused-no-tests", "x * 3", "x * 4", "no_tests", None),
    ("count-return-n-equivalent", "    return i\n", "    return n\n", "survived", None),
    ("fee-slow-is-timeout-not-kill", "amount * bps // 10000", SLOW_FEE, "timeout", None),
]
