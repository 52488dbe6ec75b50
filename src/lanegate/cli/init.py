"""`lanegate init`: inspect the repository, write a commented lanegate.toml (a fixture folder is
named, not locked: the fixture lane needs replay cases, which only the user can declare)."""

from __future__ import annotations

import argparse
from pathlib import Path

from lanegate import adopt, git

COMMAND = "init"
HELP = "write a commented lanegate.toml for this repository"

EXAMPLE_TEST = """\
    from hypothesis import given, strategies as st
    from lanegate.oracles import round_trip

    from mypkg import encode, decode

    @given(st.text())
    def test_encode_round_trips(text):
        round_trip(encode, decode, text)"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repo", type=Path, default=Path("."), help="repository (default: .)")
    parser.add_argument("--force", action="store_true", help="replace an existing lanegate.toml")


def run(args: argparse.Namespace) -> int:
    repo = git.repo_root(Path(args.repo))
    found = adopt.inspect(repo)
    path = adopt.write_policy(repo, found, force=args.force)
    print(f"wrote {path.relative_to(repo)}")
    print(
        f"  source dirs: {', '.join(found.source_dirs)}; tests: {', '.join(found.test_dirs) or '-'}"
    )
    print(
        f"  oracle module: {found.oracle_module or 'lanegate.oracles (no tests/oracles.py found)'}"
    )
    to_commit = [path.name]
    if found.fixtures_dir is None:
        print("  fixtures: none found (allow_none = true)")
    else:
        print(
            f"  fixtures: {found.fixture_files} file(s) in {found.fixtures_dir}, not locked: the "
            "fixture lane needs replay cases\n    (input -> expected bytes), and a locked folder "
            "without one fails every pull request;\n    declare [[fixtures.cases]] in "
            f"{path.name} (see its comments), then run `lanegate lock`"
        )
    print("\nnext steps:")
    print(f"  1. commit {' and '.join(to_commit)} on the default branch (the lanes read them from")
    print("     the merge base: on a pull request they are gate inputs a human must approve)")
    print("  2. on a branch, have the agent's new tests call an oracle on their inputs, e.g.:")
    print(EXAMPLE_TEST)
    print("  3. run `lanegate run` on that branch (or --base origin/main); docs/adopting.md")
    return 0
