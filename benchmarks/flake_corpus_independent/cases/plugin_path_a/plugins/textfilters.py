def upper(s):
    return s.upper()


def strip(s):
    return s.strip()
