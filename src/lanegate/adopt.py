"""A repository's first policy: what `lanegate init` finds (fixtures, oracle module, source dirs)
and the commented `lanegate.toml` it writes from that."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lanegate import tomltext
from lanegate.errors import UsageError
from lanegate.policy import POLICY_FILE, find_policy_file, policy_from_mapping

FIXTURE_DIRS = ("tests/fixtures", "tests/data", "tests/testdata", "testdata", "fixtures")
ORACLE_FILES = ("tests/oracles.py", "tests/oracles/__init__.py")
SKIP_PARTS = frozenset(
    {".git", ".venv", "venv", "node_modules", "__pycache__", ".tox", ".lanegate"}
)


@dataclass(frozen=True, slots=True)
class Inspection:
    """What the repository holds that the policy must name."""

    fixtures_dir: str | None
    fixture_files: int
    oracle_module: str | None
    source_dirs: tuple[str, ...]
    test_dirs: tuple[str, ...]


def _files(folder: Path) -> int:
    return sum(
        1
        for p in folder.rglob("*")
        if p.is_file() and not SKIP_PARTS.intersection(p.relative_to(folder).parts)
    )


def inspect(repo: Path) -> Inspection:
    """Look at the working tree: fixture dir and its size, an oracle module, source and test dirs."""
    fixtures = next((d for d in FIXTURE_DIRS if (repo / d).is_dir() and _files(repo / d)), None)
    oracle = next((f for f in ORACLE_FILES if (repo / f).is_file()), None)
    src = repo / "src"
    has_src = src.is_dir() and any(p.suffix == ".py" for p in src.rglob("*.py"))
    tests = tuple(d for d in ("tests", "test", "testing") if (repo / d).is_dir())
    return Inspection(
        fixtures_dir=fixtures,
        fixture_files=_files(repo / fixtures) if fixtures else 0,
        oracle_module=oracle,
        source_dirs=("src",) if has_src else (".",),
        test_dirs=tests,
    )


def _lockfile(fixtures_dir: str) -> str:
    return (
        "tests/fixtures.lock.json"
        if fixtures_dir == "tests/fixtures"
        else f"{fixtures_dir}.lock.json"
    )


def render(found: Inspection) -> str:
    """The commented `lanegate.toml` for what was found; it always loads (checked here)."""
    lines = [
        "# lanegate policy, written by `lanegate init`. Every key is documented in docs/policy.md;",
        "# unknown keys are an error. Commit it on the default branch: the lanes read the policy,",
        "# the lockfile and the oracle module from the merge base, so a change to them on a pull",
        "# request is a gate input that needs a human.",
        "",
        "[fixtures]",
    ]
    if found.fixtures_dir is None:
        lines += [
            "# No fixture directory was found. With allow_none the fixture lane passes on an empty",
            "# fixture set; when you add one, set dir and run `lanegate lock`.",
            "allow_none = true",
        ]
    else:
        # Not locked yet: the fixture lane fails a policy whose dir has no replay case (SPEC:
        # an empty case list fails), and init cannot know which callable turns an input into
        # its expected bytes. Locking the folder now would fail every pull request.
        lines += [
            f"# {found.fixture_files} file(s) in {found.fixtures_dir}, not under the fixture lane yet:",
            "# the lane replays cases (input -> expected bytes), and a fixture dir without one fails",
            "# every pull request (fixture-no-cases). To lock the folder, declare at least one case",
            "# (paths relative to dir), drop allow_none, uncomment dir and lockfile, and run",
            "# `lanegate lock`:",
            f'# dir = "{found.fixtures_dir}"',
            f'# lockfile = "{_lockfile(found.fixtures_dir)}"',
            '# [[fixtures.cases]]\n# id = "example"\n# input = "in/example.txt"\n'
            '# expected = "out/example.txt"\n# callable = "mypkg.module:function"',
            "allow_none = true",
        ]
    lines += ["", "[properties]"]
    if found.oracle_module is None:
        lines += [
            "# New tests must call a property oracle on their inputs. lanegate ships one set",
            "# (round_trip, idempotent, equivalent, ...); write your own in tests/oracles.py and",
            "# point module at it. Example: from lanegate.oracles import equivalent",
            'module = "lanegate.oracles"',
        ]
    else:
        lines += [
            "# New tests must call one of this module's public functions on their inputs.",
            f'module = "{found.oracle_module}"',
        ]
    dirs = ", ".join(f'"{d}"' for d in found.source_dirs)
    lines += [
        "# Mutants are planted on the diff's changed lines in these directories.",
        f"source_dirs = [{dirs}]",
        "# max_mutants = 12         # mutants per diff",
        "# min_mutants_per_function = 4  # each changed function's own, past the cap",
        "# mutant_kill_ratio = 0.6  # share a trusted property test must kill (or time out)",
        "# max_examples = 100       # Hypothesis examples per property",
        "",
        "[authorship]",
        "# Diffs are the agent's unless a rule says human; unknown authorship is the agent's.",
        '# agent_labels = ["agent"]',
        '# agent_logins = ["*[bot]"]',
        "",
    ]
    text = "\n".join(lines)
    policy_from_mapping(tomltext.loads(text), POLICY_FILE)  # a PolicyError here is a lanegate bug
    return text


def write_policy(repo: Path, found: Inspection, force: bool = False) -> Path:
    """Write `lanegate.toml`; an existing policy is kept unless `force` (then only lanegate.toml)."""
    existing = find_policy_file(repo)
    if existing is not None and not (force and existing.name == POLICY_FILE):
        raise UsageError(
            f"{existing.name}: a lanegate policy exists already",
            hint="edit it, or pass --force to replace lanegate.toml",
        )
    target = repo / POLICY_FILE
    target.write_text(render(found), encoding="utf-8")
    return target
