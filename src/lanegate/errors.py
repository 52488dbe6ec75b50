"""Typed errors: one class per failure class, each able to say what to do next.

Library code raises these; only `lanegate.cli` turns them into a one-line message and exit code 2
(bad input or configuration). Anything else escaping to the CLI is an internal error (exit 3).
"""

from __future__ import annotations


class LanegateError(Exception):
    """Base of every error lanegate reports to its user as one line."""

    hint: str = ""

    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        if hint:
            self.hint = hint

    def diagnostic(self) -> str:
        """The one-line message shown to the user, with a hint when there is one."""
        text = " ".join(str(self).split())
        return f"{text} (hint: {self.hint})" if self.hint else text


class UsageError(LanegateError):
    """The command line itself is wrong."""


class PolicyError(LanegateError):
    """lanegate.toml or [tool.lanegate] is missing a value, has an unknown key or a wrong type."""


class LedgerError(LanegateError):
    """A ledger or report file is missing, unreadable, oversized or of the wrong shape."""


class LockfileError(LanegateError):
    """The fixtures lockfile is unreadable, malformed or refers to something it must not."""


class LeaseError(LanegateError):
    """flake_leases.json is unreadable or malformed."""


class GitError(LanegateError):
    """A git command failed or the repository lacks what the command needs (e.g. the base ref)."""


class AmbiguousRefError(GitError):
    """A ref the user gave names more than one thing (two refs, or a ref and a commit id prefix):
    lanegate never guesses which one the user meant."""


class WorkflowError(LanegateError):
    """A workflow, action or test-config file cannot be read at all."""


class RunnerError(LanegateError):
    """A lane could not run the user's tests (pytest missing, plugin refused, command not found)."""


class SandboxError(LanegateError):
    """No sandbox can be built here (bubblewrap missing, user namespaces refused), or it broke."""


class InstallError(LanegateError):
    """The tests' dependencies cannot be installed into their venv (pip failed, no pip, bad path)."""

    output: str = ""  # what pip said, each line prefixed (never a workflow command)


class GitHubError(LanegateError):
    """The GitHub API or the Actions runtime refused or answered something unusable."""


class ShardError(LanegateError):
    """A shard plan or a `--shard K/N` is malformed, or a plan file is not the plan of this diff."""


class CoverageMapError(LanegateError):
    """A coverage map cannot be built, or a map file cannot be used (the lane then runs in full)."""
