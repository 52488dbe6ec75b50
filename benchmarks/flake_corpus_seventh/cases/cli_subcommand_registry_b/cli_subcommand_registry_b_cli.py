"""ops CLI: subcommands register themselves with @command(name)."""
import argparse

COMMANDS = {}


def command(name, help=""):
    def deco(fn):
        if name in COMMANDS:
            raise ValueError(f"subcommand {name!r} registered twice")
        COMMANDS[name] = (fn, help)
        return fn
    return deco


def build_parser():
    parser = argparse.ArgumentParser(prog="ops")
    sub = parser.add_subparsers(dest="cmd", required=True)
    for name, (_, help_text) in sorted(COMMANDS.items()):
        sub.add_parser(name, help=help_text)
    return parser


def main(argv):
    args = build_parser().parse_args(argv)
    return COMMANDS[args.cmd][0]()


@command("version", help="print the version")
def version():
    return "ops 2.3.1"
