"""Real git repositories in temp dirs for tests: create, write, commit, branch."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.invalid",
    "GIT_COMMITTER_NAME": "Test Committer",
    "GIT_COMMITTER_EMAIL": "committer@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
}


def git(repo: Path, *args: str) -> str:
    """Run git in `repo` with a fixed identity and dates; return stdout."""
    env = {**os.environ, **GIT_ENV}
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {done.stderr}")
    return done.stdout


class Repo:
    """A throwaway repository: `write`, `commit`, `branch`, `checkout`, `rev`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        git(path, "init", "-q", "-b", "main")
        git(path, "config", "user.name", "Test Author")
        git(path, "config", "user.email", "author@example.invalid")
        git(path, "config", "commit.gpgsign", "false")

    def write(self, rel: str, content: str | bytes) -> Path:
        target = self.path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
        return target

    def remove(self, rel: str) -> None:
        git(self.path, "rm", "-q", "--", rel)

    def commit(self, message: str = "change") -> str:
        git(self.path, "add", "-A")
        git(self.path, "commit", "-q", "--allow-empty", "-m", message)
        return self.rev("HEAD")

    def rev(self, ref: str) -> str:
        return git(self.path, "rev-parse", ref).strip()

    def branch(self, name: str, start: str = "HEAD") -> None:
        git(self.path, "checkout", "-q", "-b", name, start)

    def checkout(self, ref: str) -> None:
        git(self.path, "checkout", "-q", ref)
