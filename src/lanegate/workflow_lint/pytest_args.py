"""Which command-line arguments make a test runner re-run failures, and which load a rerun plugin."""

from __future__ import annotations

import re
from dataclasses import dataclass

from lanegate.workflow_lint.runners import PYTEST_ONLY_FLAGS, UNAMBIGUOUS_FLAGS
from lanegate.workflow_lint.shell import Word, parse_shell

# `ctest --repeat until-pass:N` and `after-timeout:N` re-run failing tests
_CTEST_REPEAT = re.compile(r"^(until-pass|after-timeout):", re.IGNORECASE)
_PLUGIN = re.compile(
    r"^(pytest[_-]?)?(rerunfailures|rerun_failures|retry|flaky)(\..*)?$|^flaky\..*$", re.IGNORECASE
)
# distributions that install a rerun plugin (names normalized: lower case, `-` for `_` and `.`)
FORBIDDEN_DISTRIBUTIONS = frozenset({"pytest-rerunfailures", "flaky", "pytest-retry"})


@dataclass(frozen=True, slots=True)
class ArgHit:
    """A rerun flag (`kind` = "flag") or a rerun plugin loaded with `-p` (`kind` = "plugin")."""

    kind: str
    word: Word
    text: str


def is_forbidden_plugin(name: str) -> bool:
    """True for a plugin name that loads a rerun plugin (`no:...` disables one and is fine)."""
    return not name.startswith("no:") and bool(_PLUGIN.match(name.strip()))


def rerun_args(words: list[Word], *, pytest_context: bool) -> list[ArgHit]:
    """Rerun flags and `-p <rerun plugin>` in an argument list."""
    hits: list[ArgHit] = []
    for index, word in enumerate(words):
        value = word.value
        if value.startswith("--"):
            name, eq, rest = value.partition("=")
            if name in UNAMBIGUOUS_FLAGS or (pytest_context and name in PYTEST_ONLY_FLAGS):
                hits.append(ArgHit("flag", word, name))
            elif name == "--repeat":
                arg = rest if eq else (words[index + 1].value if index + 1 < len(words) else "")
                if _CTEST_REPEAT.match(arg):
                    hits.append(ArgHit("flag", word, f"--repeat {arg}"))
        elif pytest_context and value.startswith("-p"):
            plugin = (
                value[2:].lstrip("=")
                if len(value) > 2
                else (words[index + 1].value if index + 1 < len(words) else "")
            )
            if is_forbidden_plugin(plugin):
                hits.append(ArgHit("plugin", word, f"-p {plugin}"))
    return hits


def split_args(text: str) -> list[Word]:
    """Shell-split a string of arguments (an `addopts` value, a matrix entry) keeping positions."""
    return [word for command in parse_shell(text).commands for word in command.words]


_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(?:[<>=!~;@ ]|$)")


def forbidden_requirement(text: str) -> str | None:
    """The normalized distribution name when a requirement string installs a rerun plugin."""
    match = _REQUIREMENT.match(text)
    if match is None:
        return None
    name = re.sub(r"[-_.]+", "-", match.group(1)).lower()
    return name if name in FORBIDDEN_DISTRIBUTIONS else None
