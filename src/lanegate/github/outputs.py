"""Step outputs (GITHUB_OUTPUT) without actions-toolkit, whose import needs PyGithub: a lane job's
environment holds neither (only the score job installs them), and `lanegate authorship` runs in the
flake job and the authorship step too."""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping
from pathlib import Path

from lanegate.errors import GitHubError


def in_actions(environ: Mapping[str, str] | None = None) -> bool:
    """True inside a GitHub Actions job (GitHub and act both set GITHUB_ACTIONS=true)."""
    env = os.environ if environ is None else environ
    return env.get("GITHUB_ACTIONS") == "true"


def set_output(name: str, value: str) -> bool:
    """Append `name=value` to GITHUB_OUTPUT (the multi-line form, with a random delimiter, as the
    toolkit writes it). Outside Actions with no GITHUB_OUTPUT, do nothing and return False; inside
    Actions with no GITHUB_OUTPUT, refuse: the toolkit would print the deprecated `::set-output`."""
    path = os.environ.get("GITHUB_OUTPUT", "")
    if not path:
        if in_actions():
            raise GitHubError(
                "GITHUB_OUTPUT is not set inside GitHub Actions: refusing the deprecated "
                "::set-output fallback",
                hint="run lanegate as a step of a current runner (GitHub or act)",
            )
        return False
    if not Path(path).is_file():
        raise GitHubError(f"GITHUB_OUTPUT names {path!r}, which is not a file")
    delimiter = f"ghadelimiter_{uuid.uuid4()}"
    if delimiter in name or delimiter in value:
        raise GitHubError(f"output {name!r}: its value holds the delimiter {delimiter}")
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")
    return True
