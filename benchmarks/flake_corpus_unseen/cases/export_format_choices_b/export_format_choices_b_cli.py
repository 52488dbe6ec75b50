"""`reports export` command."""
import argparse

FORMATS = {"csv", "json", "xml"}


def build_parser():
    p = argparse.ArgumentParser(prog="reports export")
    p.add_argument("--format", choices=FORMATS, default="csv")
    p.add_argument("--since", metavar="DATE")
    return p
