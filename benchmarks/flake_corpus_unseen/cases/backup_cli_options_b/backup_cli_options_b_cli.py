"""backupctl command line: core options plus options contributed by storage plugins."""
import argparse


def _core_parser():
    p = argparse.ArgumentParser(prog="backupctl")
    p.add_argument("--dry-run", action="store_true")
    p.add_argument("--keep", type=int, default=7, help="number of snapshots to keep")
    return p




def parse(argv, plugins=()):
    parser = _core_parser()
    for plugin in plugins:
        plugin(parser)
    return parser.parse_args(argv)
