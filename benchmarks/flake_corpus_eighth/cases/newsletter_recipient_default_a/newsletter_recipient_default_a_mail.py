"""Recipient lists for the weekly newsletter."""


def build_recipients(primary, cc=None):
    cc = [] if cc is None else list(cc)
    cc.append(primary)
    return cc
