"""Parsing access logs written by the load balancer (timestamps are UTC, '+0000')."""
import calendar
import time


def to_epoch(stamp):
    fields = stamp.split()[0]
    parsed = time.strptime(fields, "%d/%b/%Y:%H:%M:%S")
    return int(time.mktime(parsed))


def parse_line(line):
    ip, rest = line.split(" ", 1)
    stamp = rest[rest.index("[") + 1: rest.index("]")]
    return {"ip": ip, "epoch": to_epoch(stamp)}
