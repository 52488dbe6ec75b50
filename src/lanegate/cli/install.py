"""`lanegate install --venv DIR -- PIP_ARGS...`: the tests' dependencies, installed in the sandbox."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lanegate.cli.common import add_repo_arguments, repo_and_policy
from lanegate.errors import InstallError, UsageError
from lanegate.install import DEFAULT_WALL_SECONDS, MAX_WALL_SECONDS, install_tests_venv
from lanegate.sandbox.interpreter import TESTS_PYTHON_ENV

COMMAND = "install"
HELP = (
    "create a venv for the tests and pip-install into it inside the sandbox (the head's build "
    f"code runs there); lanes then run the tests with it when {TESTS_PYTHON_ENV} names it"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_repo_arguments(parser)
    parser.add_argument(
        "--venv", type=Path, required=True, help="the tests venv to create (new, outside the tree)"
    )
    parser.add_argument(
        "--pip",
        default=sys.executable,
        metavar="PYTHON",
        help="interpreter whose pip runs the install (default: lanegate's own)",
    )
    parser.add_argument(
        "--check-import",
        action="append",
        default=[],
        metavar="MODULE",
        help="fail unless the tests venv imports MODULE afterwards (repeatable; e.g. pytest)",
    )
    parser.add_argument(
        "--wall-seconds",
        type=float,
        default=DEFAULT_WALL_SECONDS,
        help=f"wall clock of the install (default: {DEFAULT_WALL_SECONDS:.0f}; a download and "
        "build, not one test run, so not lane.max_wall_seconds)",
    )
    parser.add_argument(
        "pip_args", nargs=argparse.REMAINDER, help="-- then the arguments of `pip install`"
    )


def run(args: argparse.Namespace) -> int:
    pip_args = list(args.pip_args)
    if pip_args[:1] == ["--"]:
        pip_args = pip_args[1:]
    if not pip_args:
        raise UsageError("install: give the pip arguments after --, e.g. -- -e .[test]")
    if not 0 < args.wall_seconds <= MAX_WALL_SECONDS:
        raise UsageError(
            f"--wall-seconds {args.wall_seconds}: give 0 < seconds <= {MAX_WALL_SECONDS}"
        )
    repo, policy = repo_and_policy(args)
    try:
        installed = install_tests_venv(
            repo,
            args.venv,
            pip_args,
            pip_python=args.pip,
            limits=policy.sandbox,
            wall_seconds=args.wall_seconds,
            check_imports=args.check_import,
        )
    except InstallError as exc:
        if exc.output:
            print(exc.output, file=sys.stderr)
        raise
    if installed.output_tail:
        print(installed.output_tail)
    print(
        f"lanegate: tests venv {installed.python} filled in the sandbox in "
        f"{installed.seconds:.2f} s; run the lanes with {TESTS_PYTHON_ENV}={installed.python}"
    )
    return 0
