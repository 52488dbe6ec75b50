"""The policy keys a lane takes from the merge base, never from the head it judges.

The lanes run with the checked-out policy, and the scorer fails a diff that changed it (a gate
input). Most keys can wait for that verdict; `sandbox.pass_env` cannot: it decides which of
lanegate's environment variables the head's tests see while they run, and a test that saw a token
has already printed it into its id, which the ledgers and the pull request comment carry, before
any verdict. So the lanes read it from the policy file at the merge base: the same file
(`lanegate.toml`, `[tool.lanegate]` in `pyproject.toml`, or an explicit `--config` inside the tree),
as the base has it. An explicit file outside the tree is the caller's own and is read as given. A
base without the file, or with one that does not load, passes nothing.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from pathlib import Path
from typing import Any

from lanegate import git, tomltext
from lanegate.errors import GitError, PolicyError
from lanegate.policy import (
    MAX_POLICY_BYTES,
    POLICY_FILE,
    PYPROJECT,
    Policy,
    SandboxPolicy,
    has_lanegate_table,
    policy_from_file_data,
)


def trusted_sandbox(
    repo: Path, base: str | None, head: str, policy: Policy, config: Path | None = None
) -> SandboxPolicy:
    """The checked-out policy's `[sandbox]` with `pass_env` as the merge base has it: what every
    command that runs head code opens its sandbox with (a lane, a replay, the oracle listing)."""
    return dataclasses.replace(
        policy.sandbox, pass_env=merge_base_pass_env(repo, base, head, policy, config)
    )


def _at(repo: Path, commit: str, rel: str) -> dict[str, Any] | None:
    data = git.show_file(repo, commit, rel)
    if data is None or len(data) > MAX_POLICY_BYTES:
        return None
    return tomltext.loads(data.decode("utf-8"))


def _policy_at(repo: Path, commit: str, rel: str | None) -> Policy:
    """The policy the merge base's file says (`rel`: an explicit file; None: `lanegate.toml`, else
    a `pyproject.toml` with `[tool.lanegate]`, as `load_policy` looks); defaults where there is
    none."""
    for name in [rel] if rel is not None else [POLICY_FILE, PYPROJECT]:
        data = _at(repo, commit, name)
        if data is None or (rel is None and name == PYPROJECT and not has_lanegate_table(data)):
            continue
        where = f"{name} at the merge base"
        return policy_from_file_data(Path(name).name, data, where, where)
    return Policy()


def merge_base_pass_env(
    repo: Path, base: str | None, head: str, given: Policy, config: Path | None = None
) -> tuple[str, ...]:
    """`sandbox.pass_env` as the merge base's policy file says it (see the module docstring);
    `given` is the policy the lane runs with, `config` the explicit policy file, if any."""
    rel = None
    if config is not None:
        root = repo.resolve()
        # inside the tree as written or where its links lead: a link the head put in the tree
        # that leads out of it must not make the head's own file "the caller's"
        lexical = Path(os.path.abspath(config))
        named = lexical.parent.resolve() / lexical.name  # its folders' links followed, not its own
        inside = [p for p in (named, lexical, config.resolve()) if root in p.parents]
        if not inside:
            return given.sandbox.pass_env  # the caller's own file: the head cannot write it
        rel = inside[0].relative_to(root).as_posix()
    if base is None:
        return ()
    try:
        commit = git.merge_base(repo, base, head)
        return _policy_at(repo, commit, rel).sandbox.pass_env
    except (GitError, PolicyError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return ()
