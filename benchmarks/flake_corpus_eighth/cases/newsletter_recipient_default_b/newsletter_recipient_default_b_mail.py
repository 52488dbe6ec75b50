"""Recipient lists for the weekly newsletter."""


def build_recipients(primary, cc=[]):
    cc.append(primary)
    return cc
