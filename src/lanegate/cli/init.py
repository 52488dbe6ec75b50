"""`lanegate init`: inspect the repository, write a commented lanegate.toml, lock the fixtures."""

from __future__ import annotations

import argparse
from pathlib import Path

from lanegate import adopt, git
from lanegate.lanes.fixture import locking
from lanegate.policy import load_policy

COMMAND = "init"
HELP = "write a commented lanegate.toml for this repository (and lock its fixtures)"

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
        policy = load_policy(repo)
        plan = locking.plan(repo, policy.fixtures)
        if not plan.up_to_date:
            locking.write(plan)
        print(
            f"  fixtures: {found.fixture_files} file(s) in {found.fixtures_dir}, locked in {plan.key}"
        )
        to_commit.append(plan.key)
    print("\nnext steps:")
    print(f"  1. commit {' and '.join(to_commit)} on the default branch (the lanes read them from")
    print("     the merge base: on a pull request they are gate inputs a human must approve)")
    print("  2. on a branch, have the agent's new tests call an oracle on their inputs, e.g.:")
    print(EXAMPLE_TEST)
    print("  3. run `lanegate run` on that branch (or --base origin/main); docs/adopting.md")
    return 0
