"""The trusted oracle module: `properties.module` as of the merge base (or lanegate's own), never the
head's (SPEC 9: the oracle module is a trusted input).

When `properties.module` is a file of the repository, the AST check reads its functions at the merge
base, and every sandboxed run of the lane sees the base's bytes mounted over the head's copy. A module
the base does not have (the diff wrote the policy's default `tests/oracles.py` itself) is replaced by a
stand-in that re-exports lanegate's own oracles: the diff's own laws are no oracle, and tests importing
them fail to import instead of passing on laws the agent wrote.
"""

from __future__ import annotations

from pathlib import Path

from lanegate import git
from lanegate.diff import DiffSummary
from lanegate.lanes.property import oracle_ast
from lanegate.policy import Policy

STAND_IN = (
    b'"""Stand-in for an oracle module the merge base does not have: lanegate\'s own oracles."""\n'
    b"from lanegate.oracles import *  # noqa: F403\n"
)


def _module_path(policy: Policy) -> str | None:
    module = policy.properties.module
    return module.strip("/") if module.endswith(".py") else None


def trusted_oracle_module(
    repo: Path, policy: Policy, summary: DiffSummary
) -> oracle_ast.OracleModule:
    """The oracle module the AST check trusts: its function names as of the merge base (none when the
    base has no such file, so a call into a module the diff wrote counts as no oracle)."""
    path = _module_path(policy)
    source: str | None = None
    if path is not None:
        raw = git.show_file(repo, summary.merge_base, path)
        source = "" if raw is None else raw.decode("utf-8", "replace")
    return oracle_ast.OracleModule.from_policy(policy.properties.module, source)


def oracle_overlays(
    repo: Path, policy: Policy, summary: DiffSummary, staging: Path
) -> dict[Path, Path]:
    """The oracle file to mount over the sandbox's copy of the tree when the diff touched it: the
    merge base's bytes, or the stand-in (written under `staging`); empty when the diff left it alone."""
    path = _module_path(policy)
    if path is None or not any(path in (f.path, f.old_path) for f in summary.files):
        return {}
    base = git.show_file(repo, summary.merge_base, path)
    staged = staging / "trusted-oracle-module.py"
    staged.write_bytes(STAND_IN if base is None else base)
    return {repo / path: staged}
