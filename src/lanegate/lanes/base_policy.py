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

import tomllib
from pathlib import Path
from typing import Any

from lanegate import git
from lanegate.errors import GitError, PolicyError
from lanegate.policy import MAX_POLICY_BYTES, POLICY_FILE, PYPROJECT, Policy, policy_from_mapping


def _at(repo: Path, commit: str, rel: str) -> dict[str, Any] | None:
    data = git.show_file(repo, commit, rel)
    if data is None or len(data) > MAX_POLICY_BYTES:
        return None
    return tomllib.loads(data.decode("utf-8"))


def _policy_at(repo: Path, commit: str, rel: str | None) -> Policy:
    """The policy the merge base's file says (`rel`: an explicit file; None: the default
    lookup); defaults where the base has none."""
    names = [rel] if rel is not None else [POLICY_FILE, PYPROJECT]
    for name in names:
        data = _at(repo, commit, name)
        if data is None:
            continue
        if name == PYPROJECT and rel is None:
            section = (
                data.get("tool", {}).get("lanegate") if isinstance(data.get("tool"), dict) else None
            )
            if section is None:
                continue
            if not isinstance(section, dict):
                raise PolicyError(f"{name} at the merge base: [tool.lanegate]: expected a table")
            return policy_from_mapping(section, f"{name} [tool.lanegate] at the merge base")
        return policy_from_mapping(data, f"{name} at the merge base")
    return Policy()


def merge_base_pass_env(
    repo: Path, base: str, head: str, given: Policy, config: Path | None = None
) -> tuple[str, ...]:
    """`sandbox.pass_env` as the merge base's policy file says it (see the module docstring);
    `given` is the policy the lane runs with, `config` the explicit policy file, if any."""
    rel = None
    if config is not None:
        resolved, root = config.resolve(), repo.resolve()
        if root not in resolved.parents:
            return given.sandbox.pass_env  # the caller's own file: the head cannot write it
        rel = resolved.relative_to(root).as_posix()
    try:
        commit = git.merge_base(repo, base, head)
        return _policy_at(repo, commit, rel).sandbox.pass_env
    except (GitError, PolicyError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return ()
