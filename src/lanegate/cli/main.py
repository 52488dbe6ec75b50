"""`lanegate` entry point: discovers subcommand modules, dispatches, maps errors to exit codes.

Exit codes: 0 pass/clean, 1 gate failed/findings, 2 usage or configuration error, 3 internal error,
130 interrupted. No traceback is ever printed unless LANEGATE_DEBUG=1.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
import traceback
from collections.abc import Sequence
from types import ModuleType

from lanegate._version import __version__
from lanegate.errors import LanegateError

EXIT_PASS, EXIT_FAIL, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
_NOT_COMMANDS = frozenset({"main", "common"})


def subcommand_modules() -> list[ModuleType]:
    """Every `lanegate.cli.<name>` module that defines COMMAND, add_arguments and run."""
    import lanegate.cli as package

    modules = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if info.name in _NOT_COMMANDS or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"lanegate.cli.{info.name}")
        if hasattr(module, "COMMAND") and hasattr(module, "run"):
            modules.append(module)
    return modules


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"lanegate: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="lanegate",
        description="Score a pull request written by a coding agent on three ledgers; fail closed.",
    )
    parser.add_argument("--version", action="version", version=f"lanegate {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for module in sorted(subcommand_modules(), key=lambda m: str(m.COMMAND)):
        child = sub.add_parser(module.COMMAND, help=module.HELP, description=module.HELP)
        module.add_arguments(child)
        child.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    debug = os.environ.get("LANEGATE_DEBUG") == "1"
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        code = args._run(args)
        return int(code)
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else EXIT_USAGE
    except LanegateError as exc:
        print(f"lanegate: error: {exc.diagnostic()}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("lanegate: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_FAIL
    except Exception as exc:  # the last line of defence: never a pass, never a traceback
        if debug:
            traceback.print_exc()
        where = traceback.extract_tb(exc.__traceback__)[-1]
        print(
            f"lanegate: internal error: {type(exc).__name__}: {exc} "
            f"(at {os.path.basename(where.filename)}:{where.lineno}; rerun with LANEGATE_DEBUG=1)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


if __name__ == "__main__":
    raise SystemExit(main())
