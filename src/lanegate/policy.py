"""The policy file: `lanegate.toml` or `[tool.lanegate]` in `pyproject.toml` (SPEC section 2).

Strict: an unknown table or key, a wrong type (a bool where an int belongs included) or an out-of-range
value is a `PolicyError` naming the file and the key. Defaults are the strict ones. Every effective value
remembers where it came from so `lanegate config` can show it.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from lanegate import tomltext
from lanegate.errors import PolicyError

POLICY_FILE = "lanegate.toml"
PYPROJECT = "pyproject.toml"
MAX_POLICY_BYTES = 1_000_000
DEFAULT_FORBIDDEN_PLUGINS = ("rerunfailures", "flaky", "pytest_retry")
_CASE_ID = re.compile(r"^[A-Za-z0-9_.:/-]{1,200}$")
_CALLABLE = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")


@dataclass(frozen=True, slots=True)
class LanePolicy:
    """`[lane]`: the Lane B contract itself."""

    name: str = "agent-score"
    flake_budget: int = 0
    retries_as_pass: bool = False
    max_wall_seconds: float = 180.0
    forbidden_pytest_plugins: tuple[str, ...] = DEFAULT_FORBIDDEN_PLUGINS


@dataclass(frozen=True, slots=True)
class FixtureCase:
    """One replay case of the fixture lane: input bytes -> actual bytes, compared with expected."""

    id: str
    input: str
    expected: str
    callable: str | None = None
    command: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class FixturePolicy:
    """`[fixtures]`: what is hashed, where the digests live and which cases replay."""

    dir: str = "tests/fixtures"
    lockfile: str = "tests/fixtures.lock.json"
    require_digest: bool = True
    allow_none: bool = False
    case_timeout_seconds: float = 60.0
    cases: tuple[FixtureCase, ...] = ()


@dataclass(frozen=True, slots=True)
class PropertyPolicy:
    """`[properties]`: oracles, counted cases and planted mutants."""

    module: str = "tests/oracles.py"
    fail_on_missing_oracle: bool = True
    max_mutants: int = 12
    # every changed function's own mutants, planted past max_mutants: dilution cannot starve one
    min_mutants_per_function: int = 4
    mutant_kill_ratio: float = 0.6
    seed: int = 0
    max_examples: int = 100
    source_dirs: tuple[str, ...] = ("src", ".")
    # a fixed mutant draw (reproducible verdicts, known to every diff); None: a secret one per run
    mutant_draw: int | None = None
    # an agent diff that changes the behaviour of a function that exists at base (its revert killed,
    # the behaviour diff finds a difference) needs a human: off by default (shown, not failed)
    behaviour_changes_need_approval: bool = False
    # CPU seconds the behaviour diff (base vs head on the changed functions) may spend in all
    behaviour_cpu_seconds: float = 120.0


@dataclass(frozen=True, slots=True)
class AuthorshipPolicy:
    """`[authorship]`: which diffs are the agent's, and how much their tests are trusted."""

    treat_new_tests_as_untrusted: bool = True
    min_replays: int = 3
    agent_labels: tuple[str, ...] = ("agent",)
    agent_logins: tuple[str, ...] = ("*[bot]",)
    agent_trailers: tuple[str, ...] = ("Co-authored-by: *[bot]*", "Agent:*")
    human_logins: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FlakePolicy:
    """`[flake]`: where the human-renewed leases live, the repetition budget and the detection power
    every replayed test must reach."""

    leases_file: str = "flake_leases.json"
    repeat_budget_seconds: float = 0.1
    detect_rate: float = 0.5


@dataclass(frozen=True, slots=True)
class LintExemption:
    """A Lane A budget entry that exempts one rule on one file or test until it expires."""

    rule: str
    target: str
    reason: str
    expires: date


@dataclass(frozen=True, slots=True)
class LintPolicy:
    """`[lint]`: Lane A exemptions (never honoured in Lane B)."""

    exemptions: tuple[LintExemption, ...] = ()


@dataclass(frozen=True, slots=True)
class SandboxPolicy:
    """`[sandbox]`: the resource limits of every process that runs head code (SPEC 9), and the
    variables of lanegate's environment it may see besides the few every test needs."""

    memory_mb: int = 4096
    processes: int = 256
    # every file a sandboxed process writes outside, its captured output above all: several run at
    # once (lanes side by side, replays, mutant workers), each capped here on the runner's disk
    file_mb: int = 256
    disk_mb: int = 1024
    open_files: int = 1024
    pass_env: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Policy:
    """The effective policy, and where each key's value came from."""

    lane: LanePolicy = field(default_factory=LanePolicy)
    fixtures: FixturePolicy = field(default_factory=FixturePolicy)
    properties: PropertyPolicy = field(default_factory=PropertyPolicy)
    authorship: AuthorshipPolicy = field(default_factory=AuthorshipPolicy)
    flake: FlakePolicy = field(default_factory=FlakePolicy)
    lint: LintPolicy = field(default_factory=LintPolicy)
    sandbox: SandboxPolicy = field(default_factory=SandboxPolicy)
    source: str = "defaults"
    origins: Mapping[str, str] = field(default_factory=dict)

    def items(self) -> list[tuple[str, Any, str]]:
        """Every `table.key`, its effective value and its origin, in file order."""
        rows: list[tuple[str, Any, str]] = []
        for table_name in _TABLES:
            table = getattr(self, table_name)
            for key in _TABLES[table_name]:
                dotted = f"{table_name}.{key}"
                rows.append((dotted, getattr(table, key), self.origins.get(dotted, "default")))
        return rows


# --- key specifications ------------------------------------------------------------------------

Check = Callable[[Any], str | None]


def _positive(value: Any) -> str | None:
    return None if value > 0 else "must be > 0"


def _non_negative(value: Any) -> str | None:
    return None if value >= 0 else "must be >= 0"


def _draw(value: Any) -> str | None:
    return None if 0 <= value < 2**62 else "must be between 0 and 2**62 - 1"


def _ratio(value: Any) -> str | None:
    return None if 0.0 < value <= 1.0 else "must be in (0, 1]"


def _at_least_three(value: Any) -> str | None:
    return None if value >= 3 else "must be >= 3 (the spec's minimum of replays)"


def _non_empty(value: Any) -> str | None:
    return None if value else "must not be empty"


# variables the lanes set or strip themselves: a policy may not hand head code its own value
_RESERVED_ENV = ("PYTEST_", "PYTHON", "LANEGATE_", "HYPOTHESIS_", "LD_")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _env_names(value: Any) -> str | None:
    for name in value:
        if not _ENV_NAME.fullmatch(name):
            return f"{name!r} is not an environment variable name"
        if name.startswith(_RESERVED_ENV):
            return f"{name!r} is set by the lanes themselves ({', '.join(_RESERVED_ENV)}...)"
    return None


@dataclass(frozen=True, slots=True)
class _Key:
    kind: str  # "str" | "int" | "float" | "bool" | "strs" | "cases" | "exemptions"
    check: Check | None = None


_TABLES: dict[str, dict[str, _Key]] = {
    "lane": {
        "name": _Key("str", _non_empty),
        "flake_budget": _Key("int", _non_negative),
        "retries_as_pass": _Key("bool"),
        "max_wall_seconds": _Key("float", _positive),
        "forbidden_pytest_plugins": _Key("strs"),
    },
    "fixtures": {
        "dir": _Key("str", _non_empty),
        "lockfile": _Key("str", _non_empty),
        "require_digest": _Key("bool"),
        "allow_none": _Key("bool"),
        "case_timeout_seconds": _Key("float", _positive),
        "cases": _Key("cases"),
    },
    "properties": {
        "module": _Key("str", _non_empty),
        "fail_on_missing_oracle": _Key("bool"),
        "max_mutants": _Key("int", _non_negative),
        "min_mutants_per_function": _Key("int", _non_negative),
        "mutant_kill_ratio": _Key("float", _ratio),
        "seed": _Key("int", _non_negative),
        "max_examples": _Key("int", _positive),
        "source_dirs": _Key("strs"),
        "mutant_draw": _Key("int", _draw),
        "behaviour_changes_need_approval": _Key("bool"),
        "behaviour_cpu_seconds": _Key("float", _positive),
    },
    "authorship": {
        "treat_new_tests_as_untrusted": _Key("bool"),
        "min_replays": _Key("int", _at_least_three),
        "agent_labels": _Key("strs"),
        "agent_logins": _Key("strs"),
        "agent_trailers": _Key("strs"),
        "human_logins": _Key("strs"),
    },
    "flake": {
        "leases_file": _Key("str", _non_empty),
        "repeat_budget_seconds": _Key("float", _non_negative),
        "detect_rate": _Key("float", _ratio),
    },
    "lint": {"exemptions": _Key("exemptions")},
    "sandbox": {
        "memory_mb": _Key("int", _positive),
        "processes": _Key("int", _positive),
        "file_mb": _Key("int", _positive),
        "disk_mb": _Key("int", _positive),
        "open_files": _Key("int", _positive),
        "pass_env": _Key("strs", _env_names),
    },
}

_TYPE_NAMES = {
    "str": "a string",
    "int": "an integer",
    "float": "a number",
    "bool": "true or false",
    "strs": "an array of strings",
    "cases": "an array of tables",
    "exemptions": "an array of tables",
}


def _convert(kind: str, value: Any, where: str) -> Any:
    """Check one raw TOML value against its kind and return the typed value."""
    wrong = PolicyError(f"{where}: expected {_TYPE_NAMES[kind]}, got {type(value).__name__}")
    if kind == "str":
        if not isinstance(value, str):
            raise wrong
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise wrong
        return value
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise wrong
        return value
    if kind == "float":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise wrong
        if not math.isfinite(value):
            raise PolicyError(f"{where}: must be a finite number")
        return float(value)
    if kind == "strs":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise wrong
        return tuple(value)
    if kind == "cases":
        if not isinstance(value, list):
            raise wrong
        return tuple(_case(item, f"{where}[{i}]") for i, item in enumerate(value))
    if kind == "exemptions":
        if not isinstance(value, list):
            raise wrong
        return tuple(_exemption(item, f"{where}[{i}]") for i, item in enumerate(value))
    raise AssertionError(kind)


def _table_fields(item: Any, where: str, required: set[str], optional: set[str]) -> dict[str, Any]:
    if not isinstance(item, dict):
        raise PolicyError(f"{where}: expected a table, got {type(item).__name__}")
    unknown = sorted(set(item) - required - optional)
    if unknown:
        raise PolicyError(f"{where}.{unknown[0]}: unknown key")
    missing = sorted(required - set(item))
    if missing:
        raise PolicyError(f"{where}.{missing[0]}: required key is missing")
    return item


def _case(item: Any, where: str) -> FixtureCase:
    raw = _table_fields(item, where, {"id", "input", "expected"}, {"callable", "command"})
    case_id = _convert("str", raw["id"], f"{where}.id")
    if not _CASE_ID.match(case_id):
        raise PolicyError(f"{where}.id: {case_id!r} must match {_CASE_ID.pattern}")
    has_callable, has_command = "callable" in raw, "command" in raw
    if has_callable == has_command:
        raise PolicyError(f"{where}: give exactly one of 'callable' or 'command'")
    call = None
    command = None
    if has_callable:
        call = _convert("str", raw["callable"], f"{where}.callable")
        if not _CALLABLE.match(call):
            raise PolicyError(f"{where}.callable: {call!r} is not of the form module:function")
    else:
        command = _convert("strs", raw["command"], f"{where}.command")
        if not command:
            raise PolicyError(f"{where}.command: must not be empty")
    return FixtureCase(
        id=case_id,
        input=_convert("str", raw["input"], f"{where}.input"),
        expected=_convert("str", raw["expected"], f"{where}.expected"),
        callable=call,
        command=command,
    )


def _exemption(item: Any, where: str) -> LintExemption:
    raw = _table_fields(item, where, {"rule", "target", "reason", "expires"}, set())
    expires = raw["expires"]
    if isinstance(expires, datetime) or not isinstance(expires, date):
        raise PolicyError(f"{where}.expires: expected a TOML date (YYYY-MM-DD)")
    return LintExemption(
        rule=_convert("str", raw["rule"], f"{where}.rule"),
        target=_convert("str", raw["target"], f"{where}.target"),
        reason=_non_blank(_convert("str", raw["reason"], f"{where}.reason"), f"{where}.reason"),
        expires=expires,
    )


def _non_blank(value: str, where: str) -> str:
    if not value.strip():
        raise PolicyError(f"{where}: must not be blank")
    return value


def policy_from_mapping(data: Mapping[str, Any], source: str) -> Policy:
    """Build a `Policy` from parsed TOML, naming `source` in every error."""
    origins: dict[str, str] = {}
    tables: dict[str, Any] = {}
    for table_name, table_value in data.items():
        if table_name not in _TABLES:
            raise PolicyError(f"{source}: {table_name}: unknown table", hint=_known(_TABLES))
        if not isinstance(table_value, dict):
            raise PolicyError(f"{source}: {table_name}: expected a table")
        values: dict[str, Any] = {}
        for key, raw in table_value.items():
            spec = _TABLES[table_name].get(key)
            dotted = f"{table_name}.{key}"
            if spec is None:
                raise PolicyError(
                    f"{source}: {dotted}: unknown key", hint=_known(_TABLES[table_name])
                )
            value = _convert(spec.kind, raw, f"{source}: {dotted}")
            if spec.check is not None:
                problem = spec.check(value)
                if problem:
                    raise PolicyError(f"{source}: {dotted}: {problem}")
            values[key] = value
            origins[dotted] = source
        tables[table_name] = values
    policy = Policy(
        lane=LanePolicy(**tables.get("lane", {})),
        fixtures=FixturePolicy(**tables.get("fixtures", {})),
        properties=PropertyPolicy(**tables.get("properties", {})),
        authorship=AuthorshipPolicy(**tables.get("authorship", {})),
        flake=FlakePolicy(**tables.get("flake", {})),
        lint=LintPolicy(**tables.get("lint", {})),
        sandbox=SandboxPolicy(**tables.get("sandbox", {})),
        source=source,
        origins=origins,
    )
    _check_lane_b(policy)
    return policy


def _check_lane_b(policy: Policy) -> None:
    """Lane B has no flake budget and never counts a retry as a pass (SPEC 1 and 2)."""
    where = policy.source
    if policy.lane.flake_budget != 0:
        raise PolicyError(f"{where}: lane.flake_budget: must be 0 in Lane B")
    if policy.lane.retries_as_pass:
        raise PolicyError(f"{where}: lane.retries_as_pass: must be false in Lane B")
    ids = [case.id for case in policy.fixtures.cases]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise PolicyError(f"{where}: fixtures.cases: duplicate id {duplicates[0]!r}")


def _known(names: Mapping[str, Any]) -> str:
    return "known: " + ", ".join(sorted(names))


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        size = path.stat().st_size
        if size > MAX_POLICY_BYTES:
            raise PolicyError(f"{path}: file is {size} bytes, over the {MAX_POLICY_BYTES} cap")
        return tomltext.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise PolicyError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"{path}: invalid TOML: {exc}") from None
    except (RecursionError, MemoryError):  # arrays or inline tables nested past the parser's reach
        raise PolicyError(f"{path}: invalid TOML: nested too deeply to parse") from None
    except OSError as exc:
        raise PolicyError(f"{path}: cannot read: {exc.strerror}") from None


def find_policy_file(repo: Path) -> Path | None:
    """`lanegate.toml` if present, else `pyproject.toml` when it has `[tool.lanegate]`."""
    own = repo / POLICY_FILE
    if own.is_file():
        return own
    pyproject = repo / PYPROJECT
    if pyproject.is_file() and has_lanegate_table(_read_toml(pyproject)):
        return pyproject
    return None


def load_policy(repo: Path, explicit: Path | None = None) -> Policy:
    """Load the effective policy of `repo` (or of the explicit file); defaults when there is none.

    Both `lanegate.toml` and `[tool.lanegate]` present is an error: two sources of truth.
    """
    if explicit is not None:
        if not explicit.is_file():
            raise PolicyError(f"{explicit}: policy file not found")
        return _load_file(explicit)
    path = find_policy_file(repo)
    if path is None:
        return Policy()
    if path.name == POLICY_FILE:
        pyproject = repo / PYPROJECT
        if pyproject.is_file() and has_lanegate_table(_read_toml(pyproject)):
            raise PolicyError(
                f"{path}: both lanegate.toml and [tool.lanegate] in pyproject.toml exist",
                hint="keep one",
            )
    return _load_file(path)


def _load_file(path: Path) -> Policy:
    return policy_from_file_data(path.name, _read_toml(path), str(path), path.name)


def has_lanegate_table(pyproject: Mapping[str, Any]) -> bool:
    """Whether a parsed `pyproject.toml` holds a `[tool.lanegate]` (a policy source)."""
    tool = pyproject.get("tool", {})
    return isinstance(tool, dict) and "lanegate" in tool


def policy_from_file_data(name: str, data: Mapping[str, Any], where: str, source: str) -> Policy:
    """A policy file's parsed TOML as a Policy: a `pyproject.toml` by its `[tool.lanegate]` table,
    any other file whole; `where` names the file in errors, `source` in the policy's origins."""
    if name == PYPROJECT:
        tool = data.get("tool", {})
        section = tool.get("lanegate") if isinstance(tool, dict) else None
        if not isinstance(section, dict):
            raise PolicyError(f"{where}: [tool.lanegate]: expected a table")
        return policy_from_mapping(section, f"{source} [tool.lanegate]")
    return policy_from_mapping(data, source)
