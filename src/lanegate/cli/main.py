"""`lanegate` entry point: discovers subcommand modules, dispatches, maps errors to exit codes.

Exit codes: 0 pass/clean, 1 gate failed/findings, 2 usage or configuration error, 3 internal error,
130 interrupted (Ctrl-C), 143 terminated (SIGTERM). No traceback is ever printed unless
LANEGATE_DEBUG=1.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import signal
import sys
import threading
import traceback
from collections.abc import Sequence
from types import ModuleType

from lanegate._version import __version__
from lanegate.distribution import refuse_namesake
from lanegate.errors import LanegateError
from lanegate.run.interrupt import RunInterrupted

EXIT_PASS, EXIT_FAIL, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
EXIT_TERMINATED = 143  # SIGTERM, as a shell reports a process it ended
_NOT_COMMANDS = frozenset({"main", "common"})


def subcommand_names() -> list[str]:
    """The names of the `lanegate.cli.<name>` modules that may be subcommands (nothing imported)."""
    import lanegate.cli as package

    return sorted(
        info.name
        for info in pkgutil.iter_modules(package.__path__)
        if info.name not in _NOT_COMMANDS and not info.name.startswith("_")
    )


def subcommand_modules(only: str | None = None) -> list[ModuleType]:
    """Every `lanegate.cli.<name>` module that defines COMMAND, add_arguments and run.

    With `only`, just that one is imported: a lane job should not pay for importing every other
    subcommand's dependencies at start-up.
    """
    names = [only] if only is not None else subcommand_names()
    modules = []
    for name in names:
        module = importlib.import_module(f"lanegate.cli.{name}")
        if hasattr(module, "COMMAND") and hasattr(module, "run"):
            modules.append(module)
    return modules


def _chosen_command(argv: Sequence[str]) -> str | None:
    """The subcommand named on the command line, when it is a module name (no imports needed)."""
    first = next((arg for arg in argv if not arg.startswith("-")), None)
    if first is not None and first.isidentifier() and first in subcommand_names():
        return first
    return None


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"lanegate: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = _Parser(
        prog="lanegate",
        description="Score a pull request written by a coding agent on three ledgers; fail closed.",
    )
    parser.add_argument("--version", action="version", version=f"lanegate {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for module in sorted(subcommand_modules(only), key=lambda m: str(m.COMMAND)):
        child = sub.add_parser(module.COMMAND, help=module.HELP, description=module.HELP)
        module.add_arguments(child)
        child.set_defaults(_run=module.run)
    return parser


def _terminated(signum: int, frame: object) -> None:
    raise RunInterrupted(signum)


def main(argv: Sequence[str] | None = None) -> int:
    if threading.current_thread() is not threading.main_thread():
        return _main(argv)
    # from the first line, SIGTERM unwinds like Ctrl-C (clean-up runs, a message, exit 143); a
    # run's own handler (`stop_children_on_signal`) takes over while its lanes run
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        return _main(argv)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _main(argv: Sequence[str] | None) -> int:
    debug = os.environ.get("LANEGATE_DEBUG") == "1"
    try:
        arguments = list(sys.argv[1:] if argv is None else argv)
        refuse_namesake()
        parser = build_parser(_chosen_command(arguments))
        args = parser.parse_args(arguments)
        code = args._run(args)
        return int(code)
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else EXIT_USAGE
    except LanegateError as exc:
        print(f"lanegate: error: {exc.diagnostic()}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as exc:
        if isinstance(exc, RunInterrupted) and exc.signum == signal.SIGTERM:
            print("lanegate: terminated (SIGTERM) before it finished", file=sys.stderr)
            return EXIT_TERMINATED
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
