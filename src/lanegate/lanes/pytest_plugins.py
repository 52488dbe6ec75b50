"""What every lane test process does about the third-party pytest plugins installed where the tests
run (lanegate's interpreter, or the tests venv, read as data), decided per plugin and said in a note
that the ledgers record.

- pytest-xdist: parallel workers off (`-n 0 --dist=no`). The lanes pin the order, repeat tests in one
  process and trace calls in it; workers would split all three. Passing `-n 0` rather than
  `-p no:xdist` keeps a repository's `-n auto` in `addopts` a valid command line.
- pytest-cov: coverage off (`--no-cov`). Its tracer would replace the property lane's, and a
  `--cov-fail-under` would turn a selection of tests into a failure.
A plugin that is not installed gets nothing: an `addopts` that needs it fails in the repository's own
CI too, and the lanes say which option pytest refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib.metadata import entry_points

from lanegate.sandbox import SandboxInterpreter, sandbox_interpreter


@dataclass(frozen=True, slots=True)
class PluginDecision:
    """What the lanes do about one installed plugin: the arguments they add and why."""

    distribution: str
    version: str
    args: tuple[str, ...]
    note: str


# distribution name -> (arguments, what they do)
_DECISIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "pytest-xdist": (("-n", "0", "--dist=no"), "parallel workers off"),
    "pytest-cov": (("--no-cov",), "coverage off"),
}
# plugins the lanes neutralize with arguments instead of `-p no:` (which would make their options,
# say `-n auto` in addopts, unknown to pytest)
NEUTRALIZED = {"pytest-xdist": ("xdist", "xdist.looponfail")}


def installed() -> dict[str, str]:
    """Distribution name -> version of every installed pytest plugin (entry point group pytest11)."""
    return _installed(sandbox_interpreter())


@cache
def _installed(tests: SandboxInterpreter) -> dict[str, str]:
    if tests.separate:
        return {
            d.name.lower().replace("_", "-"): d.version
            for d in tests.distributions()
            if d.pytest_plugin
        }
    found: dict[str, str] = {}
    for point in entry_points(group="pytest11"):
        dist = point.dist
        if dist is not None:
            found[dist.name.lower().replace("_", "-")] = dist.version
    return found


def decisions() -> tuple[PluginDecision, ...]:
    """The decision for every installed plugin the lanes act on, in a fixed order."""
    have = installed()
    return tuple(
        PluginDecision(name, have[name], args, note)
        for name, (args, note) in _DECISIONS.items()
        if name in have
    )


def extra_args() -> tuple[str, ...]:
    """The arguments every lane test process gets for the installed plugins."""
    return tuple(arg for d in decisions() for arg in d.args)


def notes() -> tuple[str, ...]:
    """One line per decision, for the ledgers: `pytest-xdist 3.8.0: -n 0 --dist=no (parallel ...)`."""
    return tuple(
        f"{d.distribution} {d.version}: {' '.join(d.args)} ({d.note})" for d in decisions()
    )


def neutralized_names() -> frozenset[str]:
    """Plugin names never disabled with `-p no:` because their decision's arguments neutralize them."""
    have = installed()
    return frozenset(n for dist, names in NEUTRALIZED.items() if dist in have for n in names)
